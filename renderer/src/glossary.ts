/** What each statistic the views show means, in one place: the tooltips where they appear. */
export const GLOSSARY = {
  hPrime:
    "Replicate agreement H′ (CLUMPAK's similarity of memberships after aligning clusters): 1 when the replicates agree, near 0 when they are unrelated",
  pRel: 'p_rel, the relevance threshold: a marker is relevant when its I(X;C) differs from 0 at this level (χ² test of 2·n·I); larger keeps more markers',
  pRed: 'p_red, the redundancy threshold: a relevant marker joins the panel only if it tells more about the clusters than the panel so far, at this level; smaller gives a smaller panel',
  mi: 'I(X;C): mutual information between the marker and the cluster under the fitted model (nats); the ranking of markers',
  w: "w, informativeness: EMA's posterior weight that the marker depends on the cluster (1: informative, 0: noise); EM counts every marker (1)",
  qualityIndex:
    "Quality index (GeneClass2's): the mean posterior probability of each labelled individual's own population, out of fold",
} as const;
