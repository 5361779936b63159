import { VitalsQueue, type MeasuredVital } from './queue';

const EDITOR_URL = 'http://localhost/edit-global-rule/64f1c0ffee?shop=a.myshopify.com&host=aG9zdA';
const pageOf = (pathname: string) =>
  pathname.startsWith('/edit-global-rule/')
    ? ('/edit-global-rule/:id' as const)
    : pathname === '/install'
      ? undefined
      : ('/' as const);
const vital = (name: MeasuredVital['name'], value: number, id = `${name}-1`): MeasuredVital => ({
  name,
  value,
  id,
  navigationType: 'navigate',
  navigationURL: EDITOR_URL,
});

describe('the web vitals queue', () => {
  it("batches a page view's metrics into one report of its page, with nothing of the URL", () => {
    const queue = new VitalsQueue(pageOf);
    queue.add(vital('LCP', 1830.4));
    queue.add(vital('CLS', 0.031));
    queue.add(vital('INP', 88));
    expect(queue.take()).toEqual([
      {
        page: '/edit-global-rule/:id',
        navigation: 'navigate',
        metrics: [
          { name: 'LCP', value: 1830.4 },
          { name: 'CLS', value: 0.031 },
          { name: 'INP', value: 88 },
        ],
      },
    ]);
    expect(queue.take()).toEqual([]);
  });

  it('sends each metric once: a value reported again after the page came back is dropped', () => {
    const queue = new VitalsQueue(pageOf);
    queue.add(vital('CLS', 0.02));
    expect(queue.take()).toHaveLength(1);
    queue.add(vital('CLS', 0.3));
    queue.add(vital('INP', 140));
    expect(queue.take()).toEqual([
      {
        page: '/edit-global-rule/:id',
        navigation: 'navigate',
        metrics: [{ name: 'INP', value: 140 }],
      },
    ]);
  });

  it('keeps the latest value of a metric not sent yet', () => {
    const queue = new VitalsQueue(pageOf);
    queue.add(vital('INP', 40));
    queue.add(vital('INP', 260));
    expect(queue.take()[0]!.metrics).toEqual([{ name: 'INP', value: 260 }]);
  });

  it('makes a report per page view: a page restored from the back/forward cache is another', () => {
    const queue = new VitalsQueue(pageOf);
    queue.add(vital('LCP', 900));
    queue.add({ ...vital('LCP', 40, 'LCP-2'), navigationType: 'back-forward-cache' });
    expect(queue.take().map((r) => [r.navigation, r.metrics])).toEqual([
      ['navigate', [{ name: 'LCP', value: 900 }]],
      ['back-forward-cache', [{ name: 'LCP', value: 40 }]],
    ]);
  });

  it('drops what the gateway would refuse: values out of bounds, pages outside the admin', () => {
    const queue = new VitalsQueue(pageOf);
    queue.add(vital('LCP', 300_001));
    queue.add(vital('CLS', -0.1));
    queue.add(vital('INP', Number.NaN));
    queue.add({ ...vital('LCP', 700, 'LCP-3'), navigationURL: 'http://localhost/install' });
    expect(queue.take()).toEqual([]);
  });
});
