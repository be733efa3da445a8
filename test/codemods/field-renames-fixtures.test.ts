/** The fixture pairs of field-renames, the largest group: a file of their own, so that the suite's workers share the cases (test/helpers/fixture-cases.ts). */
import { describeFixtureGroups } from '../helpers/fixture-cases.js';

describeFixtureGroups((group) => group === 'field-renames');
