import { AppError } from '@ratesmith/kit';
import { parseInput } from '../../http/validate';
import { confirmBody } from './schemas';

const parse = (body: unknown) => parseInput(confirmBody, body);
const PLAN = 'ab'.repeat(32);

describe('POST /api/shipping-import body', () => {
  it('takes the plan of GET /api/shipping-import, dropping unknown keys', () => {
    expect(parse({ plan: PLAN, shop: 'other.myshopify.com', name: 'x' })).toEqual({ plan: PLAN });
  });

  it.each([
    ['no body', {}],
    ['a plan too short', { plan: PLAN.slice(1) }],
    ['a plan too long', { plan: `${PLAN}0` }],
    ['capitals', { plan: PLAN.toUpperCase() }],
    ['trailing text', { plan: `${PLAN}\n` }],
    ['a number', { plan: 1 }],
    ['a list', { plan: [PLAN] }],
  ])('refuses %s', (_name, body) => {
    expect(() => parse(body)).toThrow(AppError);
  });
});
