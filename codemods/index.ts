/**
 * Every transform, in the order they run: the ones that take a call or an expression whole
 * (test doubles, updates, get-by-list, pagination) before the ones that rename pieces of what is left.
 */
import type { Transform } from '../src/codemod/transform.js';
import { deletes } from './deletes.js';
import { envelopes } from './envelopes.js';
import { fieldRenamesTransform } from './field-renames.js';
import { getByList } from './get-by-list.js';
import { listReaders } from './list-readers.js';
import { pagination } from './pagination.js';
import { paths } from './paths.js';
import { roleBindings } from './role-bindings.js';
import { testDoubles } from './test-doubles.js';
import { updates } from './updates.js';
import { zeroDefaults } from './zero-defaults.js';

export const TRANSFORMS: readonly Transform[] = [testDoubles, updates, getByList, pagination, listReaders, deletes, roleBindings, zeroDefaults, envelopes, fieldRenamesTransform, paths];
