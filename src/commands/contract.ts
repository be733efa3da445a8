/** `migrate-v2 contract`: the migration contract's rules, to read or to feed to other tools. */
import { allRules, assumptionsMarkdown, RESOURCES, type LocatedRule } from '../contract/index.js';

export interface ContractCommandOptions {
  assumed?: boolean;
  json?: boolean;
}

export function contractCommand(options: ContractCommandOptions): string {
  if (options.json) return `${JSON.stringify({ resources: RESOURCES, rules: allRules() }, null, 2)}\n`;
  if (options.assumed) return `${assumptionsMarkdown()}\n`;
  const rules: LocatedRule[] = allRules();
  const assumed = rules.filter((r) => r.status === 'assumed').length;
  const lines = rules.map((r) => `${r.status === 'assumed' ? 'assumed   ' : 'documented'}  ${r.where}  (${r.source})`);
  return `${lines.join('\n')}\n\n${rules.length} rules: ${rules.length - assumed} documented, ${assumed} assumed\n`;
}
