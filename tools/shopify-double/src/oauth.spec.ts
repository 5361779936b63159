import { OAuthDouble } from './oauth';

const options = {
  apiKey: 'k',
  apiSecret: 's',
  accessTokenTtlSeconds: 3600,
  defaultScope: 'read_products',
};

describe('OAuthDouble tokens', () => {
  function issue(
    double: OAuthDouble,
    shop: string,
  ): { access_token: string; refresh_token: string } {
    return (double as unknown as { issue(s: string, sc: string, e: boolean): any }).issue(
      shop,
      'read_products',
      true,
    );
  }

  it('accepts its tokens after a restart (a new double with the same secret)', () => {
    const { access_token } = issue(new OAuthDouble(options), 'a.myshopify.com');
    expect(new OAuthDouble(options).shopOfAccessToken(access_token)).toBe('a.myshopify.com');
    expect(
      new OAuthDouble({ ...options, apiSecret: 'other' }).shopOfAccessToken(access_token),
    ).toBeUndefined();
  });

  it('refuses tokens issued before an uninstall, even after the shop installs again', () => {
    const double = new OAuthDouble(options);
    const { access_token } = issue(double, 'a.myshopify.com');
    double.revoke('a.myshopify.com');
    expect(double.shopOfAccessToken(access_token)).toBeUndefined();
    issue(double, 'a.myshopify.com');
    expect(double.shopOfAccessToken(access_token)).toBeUndefined();
  });

  it('expires tokens on demand', () => {
    const double = new OAuthDouble(options);
    const { access_token } = issue(double, 'a.myshopify.com');
    double.expireAccessTokens('a.myshopify.com');
    expect(double.shopOfAccessToken(access_token)).toBeUndefined();
  });
});
