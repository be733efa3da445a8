/**
 * Loaded with `node --import` ahead of the CLI, so the CLI is measured as it is: at exit, prints the
 * process's peak RSS and the CPU time it used (user and system, all threads) as the last line of stderr.
 */
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write(`${JSON.stringify({ maxRssMiB: usage.maxRSS / 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 })}\n`);
});
