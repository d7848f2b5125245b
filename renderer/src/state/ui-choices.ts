// The renderer's own lists of allowed values (the engine's are in engine/util/choices.ts): the
// types, the views and the session file's schema use these lists alone.

/** The app's views, as a session reopens on them. */
export const VIEWS = ['data', 'run', 'structure', 'k', 'markers', 'assign', 'pca', 'map'] as const;
export type View = (typeof VIEWS)[number];

/** What colours the PCA view's points. */
export const PCA_COLOUR_BY = ['population', 'group', 'cluster', 'pies'] as const;
export type PcaColourBy = (typeof PCA_COLOUR_BY)[number];
