import type { PreparedData } from '../prepared/prepared-data.ts';
import { marginalFrequency, type MixtureModel } from './mixture-model.ts';
import { detLog } from '../../util/det-math.ts';

/**
 * I_P(X_i) of equation 7.34: the mean over clusters of KL(p(X_i) ‖ p(X_i | c)), with
 * p(X_i) = Σ_c θ_C θ_ic. Shape (L,). Small values: the marker is (nearly) independent of C.
 */
export function independenceMeasure(data: PreparedData, model: MixtureModel): Float64Array {
  const K = model.K;
  const out = new Float64Array(data.L);
  for (let i = 0; i < data.L; i++) {
    const off = data.offsets[i]!;
    let s = 0;
    for (let a = 0; a < data.alleles[i]!; a++) {
      const t = (off + a) * K;
      const marginal = marginalFrequency(model, off + a);
      if (marginal <= 0) continue;
      for (let c = 0; c < K; c++) s += marginal * detLog(marginal / model.theta[t + c]!);
    }
    out[i] = s / K;
  }
  return out;
}
