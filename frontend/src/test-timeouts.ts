import { configure } from '@testing-library/react';

// findBy and waitFor wait up to 5 s, not Testing Library's 1 s: CI runs the suites side by
// side on two cores, where a screen's first render after a cold transform can take longer.
configure({ asyncUtilTimeout: 5000 });
