/**
 * Loaded with `node --import` ahead of the CLI, so the CLI is measured as it is: at exit, prints the
 * process's peak RSS as the last line of stderr.
 */
process.on('exit', () => {
  process.stderr.write(`${JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
});
