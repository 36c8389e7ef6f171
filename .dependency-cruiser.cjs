/**
 * The allowed import directions between the folders of src/, checked by `npm run lint`. The same
 * rule, in words, is in the README ("Source layout"). From the bottom up:
 *
 *   kernel      errors.ts, log.ts, shared/           imports nothing else of src/
 *   foundation  config/, store/, platform/, metrics/  imports the kernel (metrics also reads the store)
 *   library     mapping/                             imports the kernel and the foundation
 *               exchange/                            1C's exchange protocol: the kernel, the foundation, mapping
 *   stages      intake/, delivery/, webhook/, export/, schedule/, sandbox/, admin/
 *               import the kernel, the foundation (intake and admin also the libraries), never each other
 *   root        cli.ts, daemon/, signals.ts,         wires everything; nothing imports it
 *               version.ts (cli.ts reads it)
 *
 * plus: no import cycles anywhere in src/.
 */
const KERNEL = '^src/(errors\\.ts|log\\.ts|shared/)';
const ROOT = '^src/((cli|signals|version)\\.ts$|daemon/)';
const STAGES = '^src/(intake|delivery|webhook|export|schedule|sandbox|admin)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'An import cycle makes two modules one; split what they share into a third.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'kernel-is-the-floor',
      comment: 'errors.ts, log.ts and shared/ are used by everything, so they use nothing else of src/.',
      severity: 'error',
      from: { path: KERNEL },
      to: { path: '^src/', pathNot: KERNEL },
    },
    {
      name: 'store-imports-only-the-kernel',
      comment: 'The store is the bottom layer: it decides nothing and imports no stage, config or contract.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: [KERNEL, '^src/store/'] },
    },
    {
      name: 'config-and-platform-import-only-the-kernel',
      comment: 'The config schema and the platform contract are foundations; they do not know the stages.',
      severity: 'error',
      from: { path: '^src/(config|platform)/' },
      to: { path: '^src/', pathNot: [KERNEL, '^src/$1/'] },
    },
    {
      name: 'metrics-imports-the-kernel-and-the-store',
      severity: 'error',
      from: { path: '^src/metrics/' },
      to: { path: '^src/', pathNot: [KERNEL, '^src/(metrics|store)/'] },
    },
    {
      name: 'mapping-is-a-library',
      comment: 'Mapping reads files and builds payloads; it knows the config and the contract, not the stages.',
      severity: 'error',
      from: { path: '^src/mapping/' },
      to: { path: '^src/', pathNot: [KERNEL, '^src/(mapping|config|platform)/'] },
    },
    {
      name: 'exchange-is-a-library',
      comment:
        "1C's exchange protocol (names, header, decisions, the reply) is pure or reads bytes; it knows the config, the store's rows and the XML reader, not the stages.",
      severity: 'error',
      from: { path: '^src/exchange/' },
      to: { path: '^src/', pathNot: [KERNEL, '^src/(exchange|config|store|mapping)/'] },
    },
    {
      name: 'only-intake-and-admin-use-exchange',
      comment: 'Intake speaks the exchange protocol; the console shows it with the same code.',
      severity: 'error',
      from: { path: STAGES, pathNot: '^src/(intake|admin)/' },
      to: { path: '^src/exchange/' },
    },
    {
      name: 'no-stage-imports-another-stage',
      comment: 'Stages talk through the store and the callbacks daemon/ wires, never through each other.',
      severity: 'error',
      from: { path: STAGES },
      to: { path: STAGES, pathNot: '^src/$1/' },
    },
    {
      name: 'only-intake-and-admin-use-mapping',
      comment:
        "The mapping library is pure (bytes and a spec in, payloads and problems out). Intake maps files with it; the console's mapping page (admin/) previews and suggests with the same code, so what it shows is what intake would do.",
      severity: 'error',
      from: { path: STAGES, pathNot: '^src/(intake|admin)/' },
      to: { path: '^src/mapping/' },
    },
    {
      name: 'nothing-imports-the-root',
      comment: 'cli.ts, daemon/, signals.ts and version.ts sit on top; only they import each other.',
      severity: 'error',
      from: { path: '^src/', pathNot: ROOT },
      to: { path: ROOT },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
