import { SHOP_A, SHOP_B, startStack, type Stack } from './harness';

/** POST /api/global-rules/{id}/rename through the gateway and the rules service. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

async function createRuleset(name: string): Promise<string> {
  const { body } = await stack.api('/api/global-rules', { method: 'POST', json: { name } });
  return body.rule.id;
}

const rename = (id: string, json: unknown, token?: string | null) =>
  stack.api(`/api/global-rules/${id}/rename`, { method: 'POST', json, token });

describe('renaming a ruleset', () => {
  it('renames with a trimmed name, keeps it active, and lists the new name', async () => {
    const id = await createRuleset('Summer');
    await stack.api(`/api/global-rules/${id}/toggle`);
    // A body naming another shop than the token's is refused, as on every route.
    expect((await rename(id, { name: 'Other', shop: SHOP_B })).status).toBe(403);
    const { status, body } = await rename(id, { name: '  Summer 2027  ' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: true,
      message: 'Ruleset renamed.',
      rule: { id, name: 'Summer 2027', active: true },
    });
    const list = await stack.api('/api/global-rules');
    expect(list.body.shop.global_rule_id).toBe(id);
    expect(list.body.globalRules.find((r: { id: string }) => r.id === id).name).toBe('Summer 2027');
  });

  it.each([
    [{}, 'Please enter a ruleset name'],
    [{ name: '   ' }, 'Please enter a ruleset name'],
    [{ name: 'x'.repeat(201) }, 'Ruleset name must be at most 200 characters.'],
  ])('refuses %j with the messages of Add Ruleset', async (json, message) => {
    const id = await createRuleset('Keep me');
    const { status, body } = await rename(id, json);
    expect(status).toBe(400);
    expect(body).toEqual({ status: false, message });
    const read = await stack.api(`/api/global-rules/rules?globalRuleId=${id}`);
    expect(read.body.globalRule.name).toBe('Keep me');
  });

  it('refuses a body too large for a name before the rules service sees it', async () => {
    const id = await createRuleset('Bounded');
    const { status, body } = await rename(id, { name: 'x'.repeat(1001) });
    expect(status).toBe(400);
    expect(body.status).toBe(false);
  });

  it("answers 404 for an unknown id and for another shop's ruleset", async () => {
    const id = await createRuleset('Private to A');
    expect((await rename('0123456789abcdef01234567', { name: 'X' })).status).toBe(404);
    const asB = await rename(id, { name: 'Hijacked' }, stack.token(SHOP_B));
    expect(asB.status).toBe(404);
    const mine = await stack.api(`/api/global-rules/rules?globalRuleId=${id}&shop=${SHOP_A}`);
    expect(mine.body.globalRule.name).toBe('Private to A');
  });

  it('needs a session token', async () => {
    const id = await createRuleset('Tokened');
    expect((await rename(id, { name: 'X' }, null)).status).toBe(401);
  });
});
