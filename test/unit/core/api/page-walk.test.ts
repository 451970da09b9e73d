/**
 * The page walk every list shares (page-walk.ts): a total order, `next` resolved against the page
 * that carried it, the page size learnt from a 400 naming page_size and from short pages (and
 * kept per platform), and a list checked against its count: walked again when short, said
 * incomplete when still short. The pages come from a list in memory served as a platform would.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, ProtocolError } from '../../../../src-main/core/api/api-errors';
import {
  EXPOSED_MS,
  IncompleteListError,
  nextRequest,
  PageSizes,
  refusedPageSize,
  REMEMBERED_PAGE_SIZE_FLOOR,
  totalOrder,
  walkItems,
  walkList,
  type LearntPageSize,
  type PageRequest,
  type WalkStep,
} from '../../../../src-main/core/api/page-walk';
import type { Page } from '../../../../src-main/core/api/schemas';
import { memoryStateFile } from '../../../../src-main/core/config/state-file';

const BASE = 'https://pbx.example.com/api';
const PATH = 'v3/phonebook/contact/';

interface Item {
  id: number;
}

/**
 * A platform's list of `items`: pages of at most `max`, a page_size above `refuseAbove` refused
 * with 400 max_value, `count` as given (default: the items), `order` choosing each query's order,
 * links as the query alone.
 */
function platformList(
  items: Item[],
  options: {
    max?: number;
    refuseAbove?: number;
    count?: number;
    order?: (items: Item[]) => Item[];
  } = {},
) {
  const requests: PageRequest[] = [];
  const page = (request: PageRequest): Promise<Page<Item>> => {
    requests.push(request);
    const asked = Number(request.searchParams.page_size ?? 48);
    if (options.refuseAbove !== undefined && asked > options.refuseAbove) {
      return Promise.reject(
        new ApiError(
          400,
          {
            type: 'validation_error',
            errors: [
              {
                code: 'max_value',
                detail: `Ensure this value is less than or equal to ${options.refuseAbove}.`,
                attr: 'page_size',
              },
            ],
          },
          `GET /${PATH}`,
        ),
      );
    }
    const size = Math.min(asked, options.max ?? Infinity);
    const number = Number(request.searchParams.page ?? 1);
    const ordered = options.order ? options.order(items) : items;
    const results = ordered.slice((number - 1) * size, number * size);
    const query = new URLSearchParams({ ...request.searchParams, page: String(number + 1) });
    return Promise.resolve({
      count: options.count ?? items.length,
      next: number * size < items.length ? `?${query}` : null,
      previous: null,
      results,
    });
  };
  return { page, requests };
}

const items = (count: number): Item[] => Array.from({ length: count }, (_, i) => ({ id: i + 1 }));

const list = (
  page: (request: PageRequest) => Promise<Page<Item>>,
  sizes = new PageSizes(BASE),
) => ({
  page,
  baseUrl: BASE,
  path: PATH,
  query: { phonebook: 3, ordering: 'number' },
  pageSize: 1000,
  sizes,
  // Every boundary counts as exposed (the test below keeps the default).
  exposedMs: 0,
});

/** Each step's walk, and where a walk that looks complete is about to ask about its boundaries. */
function walksOf(steps: readonly WalkStep<Item>[]): (number | string)[] {
  return steps.map((step) => (step.checking ? `${step.walk}: checking` : step.walk));
}

async function all<T>(walk: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of walk) out.push(item);
  return out;
}

describe('the page walk', () => {
  it('completes an ordering into a total one on a unique key', () => {
    expect(totalOrder(undefined, ['number'])).toBe('number');
    expect(totalOrder('display_name', ['number'])).toBe('display_name,number');
    expect(totalOrder('-number', ['phonebook', 'number'])).toBe('-number,phonebook');
    expect(totalOrder(' company , display_name ', ['number'])).toBe('company,display_name,number');
  });

  it('resolves next against the page that carried it, and only under the base URL', () => {
    const from = { path: PATH, searchParams: { phonebook: '3', page_size: '50' } };
    expect(nextRequest('?page=2&page_size=50', from, BASE, 'GET')).toEqual({
      path: PATH,
      searchParams: { page: '2', page_size: '50' },
    });
    expect(nextRequest(`${BASE}/${PATH}?page=3`, from, BASE, 'GET')).toEqual({
      path: PATH,
      searchParams: { page: '3' },
    });
    expect(nextRequest('../contact/?page=4', from, BASE, 'GET').path).toBe(PATH);
    expect(() => nextRequest('https://evil.example/api/v3/?page=2', from, BASE, 'GET')).toThrow(
      ProtocolError,
    );
    expect(() => nextRequest('/other/v3/phonebook/contact/?page=2', from, BASE, 'GET')).toThrow(
      /outside https:\/\/pbx.example.com/,
    );
  });

  it('asks at once for the size a 400 on page_size allows, and remembers it for the platform', async () => {
    const memory = memoryStateFile<LearntPageSize>();
    const platform = platformList(items(120), { refuseAbove: 50 });
    const got = await all(walkItems(list(platform.page, new PageSizes(BASE, memory))));
    expect(got).toHaveLength(120);
    // Then the item before each later page (page_size 1): still the last of the page before.
    expect(
      platform.requests.map(({ searchParams }) => [searchParams.page_size, searchParams.page]),
    ).toEqual([
      ['1000', undefined],
      ['50', undefined],
      ['50', '2'],
      ['50', '3'],
      ['1', '50'],
      ['1', '100'],
    ]);
    expect(platform.requests[1]!.searchParams).toMatchObject({
      phonebook: '3',
      ordering: 'number',
    });
    expect(await memory.read()).toMatchObject({ base_url: BASE, page_size: 50 });
    // Another process of the profile starts from it: no 400.
    const again = platformList(items(120), { refuseAbove: 50 });
    await all(walkItems(list(again.page, new PageSizes(BASE, memory))));
    expect(again.requests[0]!.searchParams.page_size).toBe('50');
    // Another platform does not.
    expect(await new PageSizes('https://other.example', memory).fit(1000)).toBe(1000);
  });

  it('halves a refused size when the platform names none, and learns from a short page', async () => {
    const refused = (detail: string) =>
      new ApiError(
        400,
        { type: 'validation_error', errors: [{ code: 'invalid', detail, attr: 'page_size' }] },
        'GET',
      );
    expect(refusedPageSize(refused('Too big.'), 1000)).toBe(500);
    expect(refusedPageSize(refused('Höchstens 100.'), 1000)).toBe(100);
    expect(refusedPageSize(refused('Too big.'), 1)).toBeUndefined();
    expect(refusedPageSize(new ApiError(400, undefined, 'GET'), 1000)).toBeUndefined();

    const sizes = new PageSizes(BASE);
    const platform = platformList(items(70), { max: 30 });
    expect(await all(walkItems(list(platform.page, sizes)))).toHaveLength(70);
    expect(await sizes.fit(1000)).toBe(30);
  });

  it('walks again when fewer came than were counted, and says so when still short', async () => {
    // Ties in a new order at every query: each walk misses some, the walks together none.
    let query = 0;
    const orders = [
      [3, 1, 1, 4, 5, 6],
      [2, 5, 6, 3, 4, 1],
    ];
    const shuffled = platformList(items(6), {
      max: 2,
      // The second walk's order holds for the questions at its boundaries.
      order: (all) => orders[Math.min(1, Math.floor(query++ / 3))]!.map((id) => all[id - 1]!),
    });
    const steps = await all(walkList(list(shuffled.page)));
    // The first walk came short: walked again at once. The second looks complete and says so
    // before it asks about its boundaries.
    expect(walksOf(steps)).toEqual([1, 1, 1, 2, 2, 2, '2: checking']);
    expect(steps.flatMap((step) => step.items.map((item) => item.id)).sort()).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);

    const short = platformList(items(5), { count: 7, max: 2 });
    const walk = all(walkItems(list(short.page)));
    await expect(walk).rejects.toBeInstanceOf(IncompleteListError);
    await expect(walk).rejects.toMatchObject({ received: 5, counted: 7, walks: 3 });
    expect(short.requests).toHaveLength(9);
  });

  it('walks again when the count changed under a walk, and says so when it changes every time', async () => {
    // Item 1 is deleted once the first page is read: item 3 moves onto page 1 and the count
    // drops to what the walk took (1, 2, 4, 5, 6): only a second walk brings item 3.
    const listed = items(6);
    const deleting = platformList(listed, { max: 2 });
    const page = async (request: PageRequest) => {
      const answer = await deleting.page(request);
      if (deleting.requests.length === 1) listed.shift();
      return answer;
    };
    const steps = await all(walkList(list(page)));
    expect(walksOf(steps)).toEqual([1, 1, 1, 2, 2, 2, '2: checking']);
    expect(steps.flatMap((step) => step.items.map((item) => item.id))).toContain(3);

    // A list that changes between every two pages (one added, then one deleted) is never read
    // whole.
    const busy = items(6);
    const changing = platformList(busy, { max: 2 });
    let next = 7;
    const churning = async (request: PageRequest) => {
      const answer = await changing.page(request);
      if (busy.length === 6) busy.push({ id: next++ });
      else busy.shift();
      return answer;
    };
    const walk = all(walkItems(list(churning)));
    await expect(walk).rejects.toBeInstanceOf(IncompleteListError);
    await expect(walk).rejects.toMatchObject({ moved: true, walks: 3 });
    await expect(walk).rejects.toThrow(/kept changing while Callbar read its pages \(3 walks\)/);
  });

  /** The first item deleted, item 7 added at the end: the count stays. */
  const replaceFirst = (list: Item[]) => {
    list.shift();
    list.push({ id: 7 });
  };

  it('walks again when one read is deleted and another added: the count the same, one between pages', async () => {
    // Item 1 goes and item 7 comes (last) once the first page is read: the count stays 6, item
    // 3 slides onto page 1, and the walk's pages hold 1, 2, 4, 5, 6, 7: six, as counted.
    const listed = items(6);
    const platform = platformList(listed, { max: 2 });
    const page = async (request: PageRequest) => {
      const answer = await platform.page(request);
      if (platform.requests.length === 1) replaceFirst(listed);
      return answer;
    };
    const steps = await all(walkList(list(page)));
    expect(steps.flatMap((step) => step.items.map((item) => item.id))).toContain(3);
    expect(steps.at(-1)!.walk).toBe(2);

    // A platform that does not keep to page_size 1 cannot be asked so: its count decides.
    const unasked = items(6);
    const fixed = platformList(unasked, { max: 2 });
    const ignoring = async (request: PageRequest) => {
      const answer = await fixed.page({
        ...request,
        searchParams: { ...request.searchParams, page_size: '2' },
      });
      if (fixed.requests.length === 1) replaceFirst(unasked);
      return answer;
    };
    expect(await all(walkItems(list(ignoring)))).toHaveLength(6);
    expect(fixed.requests).toHaveLength(4);
  });

  it('believes the count of a platform whose page of the boundary’s number is empty (it ignored page_size 1)', async () => {
    // Pages of 5 whatever is asked: "page 5" of a list of 10 is past its end, empty.
    const platform = platformList(items(10), { max: 5 });
    const ignoring = (request: PageRequest) =>
      platform.page({ ...request, searchParams: { ...request.searchParams, page_size: '5' } });
    const steps = await all(walkList(list(ignoring)));
    expect(steps.flatMap((step) => step.items)).toHaveLength(10);
    expect(walksOf(steps)).toEqual([1, 1, '1: checking']);
    expect(platform.requests.map(({ searchParams }) => searchParams.page ?? '1')).toEqual([
      '1',
      '2',
      '5',
    ]);
  });

  it('asks only about boundaries whose pages were read EXPOSED_MS or more apart', async () => {
    const platform = platformList(items(40), { max: 2 });
    // Twenty pages back to back, except that page 10's answer comes past EXPOSED_MS late (a
    // timer may end a fraction of a millisecond early by performance.now()).
    const page = async (request: PageRequest) => {
      if (request.searchParams.page === '10') {
        await new Promise((resolve) => setTimeout(resolve, EXPOSED_MS + 20));
      }
      return platform.page(request);
    };
    const got = await all(walkItems({ ...list(page), exposedMs: EXPOSED_MS }));
    expect(got).toHaveLength(40);
    const questions = platform.requests
      .filter(({ searchParams }) => searchParams.page_size === '1')
      .map(({ searchParams }) => searchParams.page);
    // The two boundaries around the slow page (after items 18 and 20: the platform read page
    // 10 anywhere in its time) are asked about; of the 17 others, at most those a loaded
    // machine happened to hold as long.
    expect(questions).toEqual(expect.arrayContaining(['18', '20']));
    expect(questions.length).toBeLessThan(10);
  });

  it('walks again when the next page is gone (404): the list shrank under the walk', async () => {
    const listed = items(6);
    const platform = platformList(listed, { max: 2 });
    const page = async (request: PageRequest) => {
      if (platform.requests.length === 2 && listed.length === 6) listed.splice(0, 2);
      if (Number(request.searchParams.page ?? 1) * 2 > listed.length + 1) {
        platform.requests.push(request);
        throw new ApiError(404, { type: 'client_error', errors: [] }, `GET /${PATH}`);
      }
      return platform.page(request);
    };
    const got = await all(walkItems(list(page)));
    expect(got.map((item) => item.id)).toEqual(expect.arrayContaining([3, 4, 5, 6]));
  });

  it('believes a remembered size only for a day and never below the floor', async () => {
    let now = Date.parse('2026-11-25T10:00:00Z');
    const memory = memoryStateFile<LearntPageSize>();
    await memory.write({ base_url: BASE, page_size: 1, learnt_at: new Date(now).toISOString() });
    expect(await new PageSizes(BASE, memory, () => now).fit(1000)).toBe(REMEMBERED_PAGE_SIZE_FLOOR);
    now += 25 * 60 * 60_000;
    expect(await new PageSizes(BASE, memory, () => now).fit(1000)).toBe(1000);
  });
});
