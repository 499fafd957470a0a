import { RiddleReporter } from './reporter.js';

/** `--reporter=riddle` imports this module's default export. */
export default RiddleReporter;
export { RiddleReporter, collectOutcomes, type RiddleReporterOptions, type CollectedOutcomes } from './reporter.js';
