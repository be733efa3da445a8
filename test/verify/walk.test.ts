/** Reading a v1 list (any size, and only a real list counts as one) and walking v2 page by page. */
import { describe, expect, it } from 'vitest';
import { resourceOf } from '../../src/contract/index.js';
import type { ApiClient } from '../../src/verify/http-client.js';
import { readV1, walkV2 } from '../../src/verify/walk.js';

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

describe('the v2 walk', () => {
  const group = resourceOf('Group');
  const page = (n: number, next: string) => ({ groups: [{ uid: `u${n}`, createTime: `2025-01-0${n}T00:00:00Z` }], nextPageToken: next, totalCount: '3' });
  /** A client that serves `pages` by page token ('' for the first) and notes each request in `events`. */
  const serving = (pages: Record<string, unknown>, events: string[]) =>
    ({
      getJson: async (path: string) => {
        const token = new URLSearchParams(path.split('?')[1]).get('page_token') ?? '';
        events.push(`get ${token || 'first'}`);
        return pages[token];
      },
    }) as unknown as ApiClient;
  const walk = (client: ApiClient, events: string[], maxPages = 10) =>
    walkV2({ client, resource: group, filters: new URLSearchParams(), pageSize: 1, maxPages, onPage: (items) => events.push(`page ${items.map((i) => i['uid']).join()}`) });

  it('asks for the next page before it hands the current one over, so the server works meanwhile', async () => {
    const events: string[] = [];
    const result = await walk(serving({ '': page(1, 't2'), t2: page(2, 't3'), t3: page(3, '') }, events), events);
    expect(events).toEqual(['get first', 'get t2', 'page u1', 'get t3', 'page u2', 'page u3']);
    expect(result).toEqual({ breaches: [], pages: 3, emptyPages: 0, totalCount: '3' });
  });

  it('asks for no page it will not read: none past --max-pages, none after a token it has seen', async () => {
    const capped: string[] = [];
    expect((await walk(serving({ '': page(1, 't2'), t2: page(2, 't3'), t3: page(3, '') }, capped), capped, 2)).stopped).toMatch(/--max-pages/);
    expect(capped.filter((e) => e.startsWith('get'))).toEqual(['get first', 'get t2']);
    const cycling: string[] = [];
    expect((await walk(serving({ '': page(1, 't2'), t2: page(2, 't2') }, cycling), cycling)).stopped).toMatch(/cycle/);
    expect(cycling.filter((e) => e.startsWith('get'))).toEqual(['get first', 'get t2']);
  });
});
