/** Reading a v1 list: any size, and only a real list counts as one. */
import { expect, it } from 'vitest';
import { resourceOf } from '../../src/contract/index.js';
import type { ApiClient } from '../../src/verify/http-client.js';
import { readV1 } from '../../src/verify/walk.js';

const groups = resourceOf('Group').v1.endpoints.list!;
const answering = (body: unknown) => ({ getJson: async () => body }) as unknown as ApiClient;

it('reads a v1 list of 300,000 records without overflowing the stack', async () => {
  const items = Array.from({ length: 300_000 }, (_, i) => ({ id: String(i) }));
  const read = await readV1(answering({ items }), groups, new URLSearchParams(), 10);
  expect(read).toHaveLength(300_000);
  expect(read[299_999]).toEqual({ id: '299999' });
});

it.each([[{}], [[]], [{ items: null }], [{ items: [1, 2] }], ['text']])('refuses a 200 answer that is not a list of records: %j', async (body) => {
  await expect(readV1(answering(body), groups, new URLSearchParams(), 10)).rejects.toThrow(/answered 200 without a list of records under "items"/);
});
