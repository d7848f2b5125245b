/**
 * The allowed values of every user-facing choice, listed once. The engine's types are derived
 * from these lists, the CLI validates and documents its options with them, and the UI builds its
 * menus from them (the renderer may import this module and the engine protocol, nothing else).
 * Each list comes with a short label for menus and help.
 */

/** A list of allowed values with a label for each. */
function choices<const T extends string>(
  labels: Record<T, string>,
): { readonly values: readonly T[]; readonly labels: Readonly<Record<T, string>> } {
  return { values: Object.keys(labels) as T[], labels };
}

/** Input formats. */
export const FORMAT = choices({
  structure: 'STRUCTURE',
  genepop: 'GENEPOP',
  vcf: 'VCF',
  'plink-ped': 'PLINK .ped/.map',
  'plink-bed': 'PLINK .bed/.bim/.fam',
  table: 'CSV/TSV table',
});
export type FormatName = (typeof FORMAT.values)[number];

/** How a cohort's reference individuals are drawn (engine/data/reference-draw.ts). */
export const REFERENCE_DRAW = choices({
  random: 'at random',
  'by-population': 'at random within each population, in proportion to its size',
});
export type ReferenceDraw = (typeof REFERENCE_DRAW.values)[number];

/** Formats a dataset or panel can be written in. */
export const EXPORT_FORMAT = choices({ structure: 'STRUCTURE', genepop: 'GENEPOP', vcf: 'VCF' });
export type ExportFormat = (typeof EXPORT_FORMAT.values)[number];

/** What the bars mean: the model a sweep fits (docs/algorithms.md §2 and §14). */
export const MODEL = choices({
  mixture: 'cluster membership (mixture model: EMA, EM, EMA-TAN)',
  admixture: 'ancestry proportions (admixture model)',
});
export type Model = (typeof MODEL.values)[number];

/** How the admixture fit's steps (EM or Newton updates) are accelerated. */
export const ACCELERATION = choices({
  auto: 'Anderson with Newton updates on 8,000 loci or more (SQUAREM after 50 steps without convergence), else SQUAREM',
  anderson: 'Anderson acceleration (one step a cycle)',
  squarem: 'SQUAREM extrapolation (three steps a cycle)',
  none: 'plain steps',
});
export type Acceleration = (typeof ACCELERATION.values)[number];

/**
 * How each step of the admixture fit updates the ancestry proportions Q: one Newton step per
 * individual with F fixed (the Q block of ADMIXTURE's block relaxation), or EM.
 * Measured in docs/admixture-q-update.md: on SNP data Newton is 1.1–13 × faster to the same or a
 * higher ln L; on eHGDP's microsatellites 1.5 × faster over K = 2..8, faster at small K, with
 * higher best ln L at some K and lower at others; so 'auto' takes Newton (EM where F is by EM under
 * Anderson acceleration, which stalls with one block of each).
 */
export const Q_UPDATE = choices({
  auto: 'Newton (EM where F is by EM under Anderson acceleration)',
  newton: 'a Newton step per individual (block relaxation)',
  em: 'EM',
});
export type QUpdate = (typeof Q_UPDATE.values)[number];

/** How each step of the admixture fit updates F (engine/model/admixture/f-newton.ts). */
export const F_UPDATE = choices({
  auto: 'Newton',
  newton: 'a Newton step per locus (block relaxation)',
  em: 'EM',
});
export type FUpdate = (typeof F_UPDATE.values)[number];

/**
 * How an admixture start is drawn: from an EM fit of the mixture model begun at the start's random
 * parameters (memberships softened halfway to uniform, the clusters' frequencies), or from the
 * random parameters themselves; 'auto' (resolvedAdmixtureInit): random when both blocks are updated
 * by Newton steps, else from the mixture model. Measured: with EM updates the mixture start needs
 * 2–3.5 × fewer passes (docs/admixture.md); with Newton updates random starts reach the best ln L of
 * the two on 18 of 24 cases against 11, in 8–14 % more time (docs/admixture-starts.md).
 */
export const ADMIXTURE_INIT = choices({
  auto: 'random with Newton updates, from the mixture model with EM updates',
  mixture: 'from an EM fit of the mixture model',
  random: 'random ancestry and frequencies',
});
export type AdmixtureInit = (typeof ADMIXTURE_INIT.values)[number];

/** Clustering algorithms of the mixture model (docs/algorithms.md §2, §5). */
export const ALGORITHM = choices({
  auto: 'auto (EMA or EM at each K, whichever predicts held-out individuals better)',
  ema: 'EMA (averages over selective naive Bayes models)',
  em: 'EM (every marker informative)',
  'ema-tan': 'EMA-TAN (averages over TAN models; linked markers)',
});
export type Algorithm = (typeof ALGORITHM.values)[number];

/**
 * When EMA's starts begin their MA steps (docs/algorithms.md §3): from random parameters the first
 * MA steps judge markers on clusters that have not formed yet, and "no marker informative" is a
 * fixed point a start cannot leave; after EM has converged the clusters follow the data.
 */
export const EMA_STARTS = choices({
  mixed: 'half from random parameters, half after EM has formed the clusters',
  random: 'from random parameters (the text)',
  'after-em': 'after EM has converged',
});
export type EmaStarts = (typeof EMA_STARTS.values)[number];

/** The algorithms one start of the mixture model can end with (what 'auto' chooses between). */
export const START_ALGORITHMS = ['ema', 'em'] as const;
export type StartAlgorithm = (typeof START_ALGORITHMS)[number];

/**
 * Which algorithm a multi-start under `--algorithm auto` kept at one K, and why (made by
 * engine/model/algorithm-choice.ts; saved in projects and result JSON, hence beside its check).
 */
export interface AlgorithmChoice {
  readonly algorithm: StartAlgorithm;
  /**
   * Cross-validated log-likelihood of held-out individuals under each algorithm's best start
   * (absent with fewer individuals than folds: then EMA).
   */
  readonly heldOut?: { readonly ema: number; readonly em: number };
  /** One sentence for the CLI and the app. */
  readonly reason: string;
}

/** Whether a saved value (a project, a result JSON) is an {@link AlgorithmChoice}. */
export function isAlgorithmChoice(x: unknown): x is AlgorithmChoice {
  if (typeof x !== 'object' || x === null) return false;
  const c = x as Record<string, unknown>;
  const h = c['heldOut'] as Record<string, unknown> | null | undefined;
  const heldOutOk =
    h === undefined ||
    (typeof h === 'object' && h !== null && typeof h['ema'] === 'number' && typeof h['em'] === 'number');
  return (
    (START_ALGORITHMS as readonly unknown[]).includes(c['algorithm']) && typeof c['reason'] === 'string' && heldOutOk
  );
}

/** How the starts of a multi-start are combined (section 7.4). */
export const POLICY = choices({
  best: 'best choice',
  uniform: 'uniform averaging',
  weighted: 'likelihood-weighted averaging',
});
export type Policy = (typeof POLICY.values)[number];

/** What best choice and weighted averaging rank starts by (docs/algorithms.md §4). */
export const RANK_BY = choices({
  evidence: 'evidence (approximate marginal likelihood)',
  likelihood: 'likelihood (as in the text)',
});
export type RankBy = (typeof RANK_BY.values)[number];

/** Missing allele copies in the mixture model. */
export const MISSING_COPIES = choices({ skip: 'skipped', expect: 'replaced by expected counts' });
export type MissingCopies = (typeof MISSING_COPIES.values)[number];

/** How random starts draw allele frequencies (docs/algorithms.md §3). */
export const INIT_METHOD = choices({
  individuals: 'on individuals chosen far apart',
  data: 'around the observed frequencies',
  flat: 'flat Dirichlet',
});
export type InitMethod = (typeof INIT_METHOD.values)[number];

/** EMA-TAN marker order. */
export const TAN_ORDER = choices({ genome: 'genome order', file: 'file order', random: 'random order' });
export type TanOrder = (typeof TAN_ORDER.values)[number];

/** Bayesian-network classifier structures (the class is a parent of every feature). */
export const CLASSIFIER = choices({ nb: 'naive Bayes', tan: 'TAN', kdb: 'kDB', bckg: 'BCkG (BFS-consistent k-graph)' });
export type StructureKind = (typeof CLASSIFIER.values)[number];

/** Parameter learning of a classifier. */
export const LEARNING = choices({
  generative: 'generative (Dirichlet estimates)',
  gradient: 'discriminative (gradient on the CLL)',
  tm: 'discriminative (TM algorithm)',
  acll: 'approximate CLL (closed form)',
});
export type Learning = (typeof LEARNING.values)[number];

/** Decomposable structure scores for BCkG/kDB structure search. */
export const SCORE = choices({
  ll: 'log-likelihood',
  bic: 'BIC/MDL',
  k2: 'K2 (Bayesian Dirichlet)',
  acll: 'approximate CLL',
  acl: 'ACL (approximate conditional likelihood, ML parameters)',
  'acl-mid': 'ACL with ACL-Mid parameters',
  'acl-max': 'ACL with ACL-Max parameters',
});
export type Score = (typeof SCORE.values)[number];

/** The classes of an assignment: populations or their groups (e.g. regions). */
export const ASSIGN_BY = choices({ population: 'populations', group: 'groups (regions)' });
export type AssignBy = (typeof ASSIGN_BY.values)[number];

/** What a classifier's variables are: a locus's alleles (copies) or its genotype states. */
export const VARIABLES = choices({
  auto: 'alleles when markers have more than 3 alleles on average, else genotypes',
  alleles: 'alleles (naive Bayes over allele frequencies, Rannala & Mountain 1997)',
  genotypes: 'genotypes (one state per unordered genotype)',
});
export type Variables = (typeof VARIABLES.values)[number];

/**
 * Exclusion probability below which an individual without a label is reported as from none of the
 * sampled populations (the CLI's excluded_from_all column and the Assign view's flag).
 */
export const EXCLUSION_LEVEL = 0.01;

/** How panels of the accuracy-against-panel-size curve are chosen. */
export const PANEL_METHOD = choices({ mi: 'mutual information', fst: 'per-locus F_ST', random: 'random' });
export type PanelMethod = (typeof PANEL_METHOD.values)[number];

/** Limits shared by the engine's checks, the CLI and the UI. */
export const LIMITS = {
  /** Worker threads for the starts of a sweep (and never more than the machine's cores in the app). */
  maxThreads: 64,
  /** Largest ploidy the data model stores. */
  maxPloidy: 8,
  /** Cross-validation folds of the admixture model's CV error. */
  maxCvFolds: 50,
  /**
   * Local scores one structure search (BCkG, kDB by score) may evaluate unless the user raises
   * it: about a few minutes a search for the scores no bound prunes (docs/structure-search.md).
   */
  structureSearch: 50_000_000,
} as const;

/**
 * Below this standard deviation of ln L over replicates (log-likelihood units: the precision ln L is
 * reported to) replicates agree, and Evanno's ΔK, which divides by it, measures rounding, not the
 * data (eHGDP gave 1.9 × 10⁴ with replicates equal to the last digit): it is left undefined
 * (analysis/k-choice.ts), and Choose K says so.
 */
export const EVANNO_MIN_SD = 0.01;

/**
 * The allowed range of each numeric sweep setting: the engine refuses a sweep outside them, the CLI
 * a flag and the app a field, all with {@link runSettingProblem}'s message, before anything runs.
 */
export const RUN_SETTINGS = {
  epsilon: { label: 'ε (convergence: the largest change of a parameter)', min: 1e-12, max: 1, integer: false },
  tolerance: { label: 'Tolerance (convergence: the change of ln L)', min: 1e-12, max: 1, integer: false },
  starts: { label: 'Starts', min: 1, max: 100_000, integer: true },
  replicates: { label: 'Replicates', min: 1, max: 1_000, integer: true },
  threads: { label: 'Threads', min: 1, max: LIMITS.maxThreads, integer: true },
} as const;
export type RunSetting = keyof typeof RUN_SETTINGS;

/**
 * What is wrong with `value` for a sweep setting, naming the setting and its range, or null when it
 * is allowed. `max` lowers the upper bound (threads: the machine's cores) and `why` says why;
 * `given` is the value as the user wrote it, when that is not the number (a CLI flag's text).
 */
export function runSettingProblem(
  setting: RunSetting,
  value: number,
  max?: number,
  why?: string,
  given: string = String(value),
): string | null {
  const r = RUN_SETTINGS[setting];
  const hi = max === undefined ? r.max : Math.min(r.max, max);
  const ok = Number.isFinite(value) && value >= r.min && value <= hi && (!r.integer || Number.isInteger(value));
  if (ok) return null;
  const range = r.integer ? `a whole number from ${r.min} to ${hi}` : `a number from ${r.min} to ${hi}`;
  return `${r.label} must be ${range}${why ? ` (${why})` : ''}, got ${given}`;
}

/**
 * A warning, before a sweep runs, when its largest K exceeds half the individuals: most clusters
 * then hold one individual or none, and F_ST, ln L and BIC all rise with K regardless (704 cattle
 * at K = 500 gave 495 empty clusters and "highest mean F_ST: K = 500"). Undefined otherwise.
 */
export function largeKWarning(kValues: readonly number[], individuals: number): string | undefined {
  const K = Math.max(...kValues);
  if (!(K > individuals / 2)) return undefined;
  return `K = ${K} is more than half the ${individuals} individuals: most clusters will be empty or hold one individual, and F_ST, ln L and BIC then favour the largest K whatever the data; a K of at most ${Math.max(1, Math.floor(individuals / 2))} (usually far fewer) is meaningful`;
}

/** Default clustering settings (the CLI's and the app's defaults; engine/model/mixture/fit.ts builds DEFAULT_FIT from them). */
export const CLUSTER_DEFAULTS = {
  model: 'mixture',
  /** Chosen on the accuracy suite (docs/accuracy.md), not on one example. */
  algorithm: 'auto',
  emaStarts: 'mixed',
  policy: 'best',
  rankBy: 'likelihood',
  epsilon: 0.01,
  maxIterations: 500,
  missing: 'skip',
  /** Chosen on the accuracy suite (docs/accuracy.md): clusters started on individuals far apart. */
  init: 'individuals',
  warmup: 10,
  alpha: 1,
  alphaCluster: 1,
  priorInformative: 'auto',
  tanWindow: 3,
  tanOrder: 'genome',
  starts: 100,
  /**
   * Screening (model/screening.ts): EM iterations of the short runs and the fraction of starts
   * kept. Off by default: on eHGDP the start a full multi-start keeps was often screened out
   * (docs/performance.md).
   */
  screenIterations: 0,
  screenKeep: 0.2,
  seed: 1,
  /** Admixture: stop when ln L changes by less than this between accepted steps (as ADMIXTURE). */
  tolerance: 1e-4,
  acceleration: 'auto',
  qUpdate: 'auto',
  fUpdate: 'auto',
  admixtureInit: 'auto',
  /**
   * Admixture, best choice (model/screening.ts): every start first runs to this tolerance (0: no
   * screening), then only the admixtureScreenStarts highest there run on to `tolerance`. Off by
   * default: on docs/admixture-screening.md no rule (τ = 1, 0.1, 0.01; 1–3 starts kept) ended
   * within 0.01 of the full multi-start's best ln L on all 24 cases (with F by Newton: the cheapest,
   * τ = 1 keep 1, 60 % of the time and 166 below at eHGDP K = 5).
   */
  admixtureScreenTolerance: 0,
  admixtureScreenStarts: 3,
  /** Admixture: folds of the cross-validation error (0: none). */
  cvFolds: 0,
} as const satisfies {
  model: Model;
  acceleration: Acceleration;
  qUpdate: QUpdate;
  fUpdate: FUpdate;
  admixtureInit: AdmixtureInit;
  algorithm: Algorithm;
  emaStarts: EmaStarts;
  policy: Policy;
  rankBy: RankBy;
  missing: MissingCopies;
  init: InitMethod;
  tanOrder: TanOrder;
  [key: string]: unknown;
};

/**
 * The admixture model's starts at each K (engine/model/start-rule.ts): rounds of `round` starts
 * until the two best agree within `agree` ln L (the best found twice), at most `cap`. On
 * docs/admixture-defaults.md it finds what 20 fixed starts find nearly as often, with half the starts.
 */
export const ADMIXTURE_START_RULE = { round: 4, cap: 20, agree: 0.1 } as const;

/** How many of a multi-start's starts run. */
export const STARTS_RULE = choices({
  agree: `in rounds of ${ADMIXTURE_START_RULE.round} until the two best agree within ${ADMIXTURE_START_RULE.agree} ln L (the best found twice), at most the starts given`,
  all: 'every start',
});
export type StartsRule = (typeof STARTS_RULE.values)[number];

/**
 * A sweep's starts (the most a multi-start runs), replicates, cross-validation folds, starts rule
 * and structured start for each model: the defaults of the CLI, the app and the workflow alike. The
 * structured start (its first start from PCA, Ward and k-means) was chosen on docs/accuracy.md for
 * the mixture model (mean ARI 0.666 → 0.687 over 14 cases); for the admixture model it reached the
 * same optima as random starts on docs/structured-start.md's SNPs at 1.1 × the run's time, so it is
 * there on request. The admixture
 * model's were chosen on docs/admixture-defaults.md; the mixture model's on docs/accuracy.md
 * (the app and `stratify sweep` run 3 and 10 replicates of it for F_ST's spread).
 */
export const SWEEP_DEFAULTS = {
  mixture: { starts: 100, replicates: 1, cvFolds: 0, startsRule: 'all', structuredStart: true },
  admixture: {
    starts: ADMIXTURE_START_RULE.cap,
    replicates: 1,
    cvFolds: 5,
    startsRule: 'agree',
    structuredStart: false,
  },
} as const satisfies Record<
  Model,
  { starts: number; replicates: number; cvFolds: number; startsRule: StartsRule; structuredStart: boolean }
>;

/**
 * The mixture model's replicates per K in `stratify sweep` and `stratify workflow` (F_ST's spread
 * per K and its Mann–Whitney tests need several; `stratify run` fits one).
 */
export const SWEEP_COMMAND_MIXTURE_REPLICATES = 10;

/**
 * Chromosome names taken for sex and organelle chromosomes unless the user names others (PLINK's
 * X, Y, XY and MT; "chr" prefixes and case ignored, M = MT): left out of clustering and PCA.
 */
export const DEFAULT_SEX_CHROMOSOMES: readonly string[] = ['X', 'Y', 'XY', 'MT'];

/** Linkage pruning's settings as the PLINK, ADMIXTURE and fastmixture tutorials give them (--indep-pairwise 50 10 0.1). */
export const LD_PRUNE_DEFAULTS = { window: 50, step: 10, r2: 0.1 } as const;

/** The app's sweep of the mixture model: fewer starts, three replicates for F_ST's spread per K. */
export const APP_MIXTURE_SWEEP = { starts: 20, replicates: 3, cvFolds: 0, startsRule: 'all' } as const;

/** A sweep's adaptive starts for a rule (SweepOptions.adaptive): absent for 'all'. */
export function adaptiveStarts(rule: StartsRule): { round: number; agree: number } | undefined {
  return rule === 'agree' ? { round: ADMIXTURE_START_RULE.round, agree: ADMIXTURE_START_RULE.agree } : undefined;
}

/** True when `value` is one of `list`'s values (narrows its type). */
export function isChoice<T extends string>(list: { readonly values: readonly T[] }, value: unknown): value is T {
  return typeof value === 'string' && (list.values as readonly string[]).includes(value);
}

/**
 * Projection's default weight λ per allele of the Dirichlet prior behind the frequencies each new
 * individual is scored with, the reference's copies and its own (engine/model/admixture/own-copies.ts;
 * 0: the fitted frequencies as they are, ADMIXTURE's -P). λ = ½ is Jeffreys' prior for a
 * multinomial. On docs/admixture-trust.md's split (fit on 80 %, project 20 %), with own copies,
 * λ = ½ against λ = 1: eHGDP's projected individuals' RMSE to their joint-fit Q 0.009 against 0.012
 * at K = 3, 0.010 against 0.012 at K = 4, 0.016 against 0.021 at K = 5 (within one optimum);
 * simulated SNPs' to their true Q 0.0186 against 0.0181 (mean of three).
 */
export const FREQUENCY_PRIOR = 0.5;

/**
 * The stage of a start at work, for progress lines: "all loci", or for the admixture model's
 * subset stage "subset 1/8 of loci" (its ln L is over those loci alone, so it is far above the
 * whole data's: without the stage the ln L shown seems to jump).
 */
export function iterationStage(loci: number | undefined, total: number): string {
  if (loci === undefined || loci >= total) return 'all loci';
  return `subset 1/${Math.round(total / loci)} of loci`;
}

/** Puechmaille's (2016) K estimators: the published membership threshold (`--membership-threshold`). */
export const PUECHMAILLE_THRESHOLD = 0.5;

/**
 * PCA's settings (engine/analysis/pca.ts): components, the randomised method's seed and
 * oversampling, the number of individuals up to which the exact decomposition runs, and the Krylov
 * iterations' tolerance and limit. The defaults, used by `stratify pca` and the app's PCA view.
 */
export interface PcaOptions {
  readonly pcs: number;
  readonly seed: number;
  readonly oversampling: number;
  readonly exactUpTo: number;
  readonly tolerance: number;
  readonly maxIterations: number;
}

export const PCA_DEFAULTS: PcaOptions = {
  pcs: 10,
  seed: 1,
  oversampling: 10,
  exactUpTo: 50,
  tolerance: 1e-4,
  maxIterations: 50,
};
