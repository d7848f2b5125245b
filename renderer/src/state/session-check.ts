// Checks a session file before anything is restored: a damaged or foreign file is refused with
// the field at fault, and changes nothing. The file's shape is session-schema.ts's (run by its
// generated standalone validator); what a schema cannot state — tables whose lengths must agree —
// is checked here.
import type { SessionDoc } from './session.ts';
import { validate } from './generated/session-validator.ts';

/** The validator's first error, as ajv reports it. */
interface SchemaError {
  readonly instancePath: string;
  readonly message?: string;
}

/** A readable refusal: what is wrong and where in the session file. */
function bad(where: string, what: string): never {
  throw new Error(`the session file is damaged or from another version: ${where} ${what}`);
}

/** A JSON pointer as the field's name in the file: /runs/0/theta → runs[0].theta. */
export function fieldName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

/**
 * Checks that a parsed JSON document is a whole Stratify session (session-schema.ts: types,
 * allowed values; then the tables' shapes), so that a tampered or foreign file is refused with a
 * readable error before anything is restored.
 */
export function checkSession(doc: unknown): SessionDoc {
  const d = doc as Partial<SessionDoc> | null;
  if (!d || typeof d !== 'object' || d.app !== 'stratify' || d.version !== 1)
    throw new Error('not a Stratify session (version 1) file');
  if (!Array.isArray(d.files) || d.files.length === 0) throw new Error('the session holds no dataset');
  if (!validate(doc)) {
    const e = (validate as unknown as { errors: readonly SchemaError[] }).errors[0]!;
    bad(fieldName(e.instancePath) || 'the file', e.message ?? 'is not valid');
  }
  const session = doc as SessionDoc;
  session.runs.forEach((run, k) => {
    if (run.Q.length % run.K !== 0 || run.weights.length !== run.K)
      bad(`runs[${k}]`, 'has tables that do not fit its K');
  });
  const r = session.pca?.result;
  if (r && !(r.eigenvalues.length === r.pcs && r.varianceFraction.length === r.pcs && r.vectors.length % r.pcs === 0))
    bad('pca.result', 'has tables that do not fit its components');
  const p = session.trust?.projection;
  if (p && (p.Q.length !== p.individuals.length * p.K || p.copies.length !== p.individuals.length))
    bad('trust.projection', 'has tables that do not fit its individuals');
  return session;
}
