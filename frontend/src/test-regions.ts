// The region table loads once a page, after its first render (data/regions.ts).
// Loaded before each test file's tests, so a screen's renders are the ones its
// test drives (render counts, act()); FilterSentence.spec covers the codes shown
// while it loads, and the browser tests the load itself.
import { loadRegions } from './data/regions';

// A file that makes the load fail tests that itself.
beforeAll(() => loadRegions().catch(() => undefined));
