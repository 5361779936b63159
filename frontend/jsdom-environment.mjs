// jsdom for the component tests, plus the fetch API classes it lacks (react-router's
// data router builds a Request per navigation). AbortController comes along from Node
// so that a Request accepts its signal (both must be from the same realm).
import { TestEnvironment } from 'jest-environment-jsdom';

export default class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of ['Request', 'Response', 'Headers', 'AbortController', 'AbortSignal']) {
      this.global[name] = globalThis[name];
    }
  }
}
