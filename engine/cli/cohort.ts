// `stratify split` and `stratify combine`: a cohort larger than one fit, as a reference fitted
// with `run`/`sweep --keep reference.ids`, shards projected with `project --keep shard.S.ids`,
// and the pieces combined in the input's order (the workflow's cohort rules run them as jobs).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { readDatasetIndividuals } from '../formats/read-dataset.ts';
import { selectIndividuals } from '../formats/individual-list.ts';
import { datasetFiles, fileSource } from '../node/file-source.ts';
import { CLUSTER_DEFAULTS as D, REFERENCE_DRAW } from '../util/choices.ts';
import { cohortPlanFiles, combineCohort, planCohort } from '../service/cohort.ts';
import { readReference } from '../service/project.ts';
import { ensureWritableDir } from './output-dir.ts';
import { choice, choiceHelp, positiveInt } from './parse-args.ts';
import { referenceKOption } from './project.ts';
import { addReadOptions, readOptionsFrom } from './read-options.ts';

/** The cohort's individuals, read without the genotypes where the format allows it. */
function cohortIndividuals(file: string, o: Record<string, unknown>) {
  return readDatasetIndividuals(datasetFiles(file), readOptionsFrom(o));
}

export function registerCohort(program: Command): void {
  addReadOptions(
    program
      .command('split')
      .argument('<file>', 'genotype file of the whole cohort')
      .description(
        'draw a reference from a cohort and split the others into shards: reference.ids, projected.ids and shard.S.ids, lists for --keep',
      )
      .option('--reference-size <n>', 'individuals in the reference (drawn with --seed)')
      .option('--reference-list <file>', 'the reference given: its individuals listed (as for --keep)')
      .option('--draw <how>', choiceHelp('how the reference is drawn', REFERENCE_DRAW), 'by-population')
      .option('--shards <S>', 'jobs the others are projected in', '1')
      .option('--seed <s>', 'seed of the draw', String(D.seed))
      .option('--out <dir>', 'where the lists are written', 'stratify-cohort'),
  ).action(async (file: string, o: Record<string, unknown>) => {
    const shards = positiveInt(o['shards'], '--shards');
    const draw = choice(o['draw'], '--draw', REFERENCE_DRAW.values);
    const seed = Number(o['seed']);
    if (!Number.isInteger(seed)) throw new Error(`--seed takes a whole number, got "${String(o['seed'])}"`);
    if ((o['referenceSize'] === undefined) === (o['referenceList'] === undefined))
      throw new Error('give the reference as --reference-size N or as --reference-list FILE (one of the two)');
    const size = o['referenceSize'] === undefined ? undefined : positiveInt(o['referenceSize'], '--reference-size');
    const out = String(o['out']);
    ensureWritableDir(out);
    const individuals = await cohortIndividuals(file, o);
    const referenceIds =
      o['referenceList'] === undefined
        ? undefined
        : await selectIndividuals(individuals, { keep: fileSource(String(o['referenceList'])) });
    const plan = planCohort(individuals, {
      ...(size !== undefined ? { referenceSize: size } : {}),
      ...(referenceIds ? { referenceIds } : {}),
      draw,
      seed,
      shards,
    });
    const files = cohortPlanFiles(individuals, plan);
    for (const f of files) writeFileSync(join(out, f.name), f.text);
    const sizes = plan.shards.map((s) => s.length);
    process.stdout.write(
      `reference: ${plan.reference.length} of ${individuals.length} individuals${referenceIds ? '' : ` (${REFERENCE_DRAW.labels[draw]}, seed ${seed})`}; ` +
        `${sizes.reduce((a, b) => a + b, 0)} to project in ${shards} shard(s) of ${Math.min(...sizes)}–${Math.max(...sizes)}\n` +
        `wrote ${files.map((f) => f.name).join(', ')} to ${out}\n`,
    );
  });

  addReadOptions(
    program
      .command('combine')
      .argument('<file>', 'genotype file of the whole cohort (its individuals give the order)')
      .description(
        "combine a cohort's reference fit and its shards' projections into one result in the file's order: a .Q, the reference's .P, cohort.tsv and stratify.json",
      )
      .requiredOption('--reference <file>', "the reference's stratify.json (of run, sweep or merge)")
      .option('--k <K>', 'which K of the reference (as for project; cv: the K of the lowest CV error)')
      .requiredOption('--projections <files...>', "the shards' projection.json files (of stratify project)")
      .option('--out <dir>', 'output directory', 'stratify-cohort'),
  ).action(async (file: string, o: Record<string, unknown>) => {
    const referenceFile = String(o['reference']);
    const reference = readReference(referenceFile, readFileSync(referenceFile, 'utf8'), referenceKOption(o['k']));
    const out = String(o['out']);
    ensureWritableDir(out);
    const pieces = (o['projections'] as string[]).map((p) => ({ file: p, text: readFileSync(p, 'utf8') }));
    const individuals = await cohortIndividuals(file, o);
    const result = combineCohort(individuals, reference, pieces, file);
    for (const f of result.files) writeFileSync(join(out, f.name), f.text);
    process.stdout.write(
      `${individuals.length} individuals on ${referenceFile} (${reference.run}): ${result.fitted} fitted, ${result.projected} projected from ${pieces.length} shard(s)\n` +
        `wrote ${result.files.map((f) => f.name).join(', ')} to ${out}\n`,
    );
  });
}
