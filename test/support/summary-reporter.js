/**
 * Prints the run's counts as one plain line ("tests: N passed, N failed, N skipped") after
 * Jest's own summary, so CI tooling that reads closing lines understands the result.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\ntests: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests} skipped\n`);
  }
}
module.exports = SummaryReporter;
