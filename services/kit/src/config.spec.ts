import { z } from 'zod';
import { ConfigError, envBoolean, mongoEnvSchema, parseEnv, serviceEnvSchema } from './config';

describe('parseEnv', () => {
  const schema = serviceEnvSchema
    .extend(mongoEnvSchema.shape)
    .extend({ FLAG: envBoolean.default(false) });

  it('parses and applies defaults', () => {
    const config = parseEnv(schema, {
      NATS_URL: 'nats://127.0.0.1:4222',
      MONGODB_URI: 'mongodb://h/',
      FLAG: 'yes',
    });
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      NATS_REQUEST_TIMEOUT_MS: 2000,
      HEALTH_PORT: 9090,
      FLAG: true,
    });
  });

  it('names every missing or bad variable in one message', () => {
    let error: unknown;
    try {
      parseEnv(schema, { HEALTH_PORT: 'abc', MONGODB_URI: 'postgres://x', FLAG: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message, problems } = error as ConfigError;
    expect(problems).toHaveLength(4);
    expect(message).toMatch(/^Invalid configuration: /);
    expect(message).toContain('NATS_URL is required');
    expect(message).toContain('HEALTH_PORT');
    expect(message).toContain('MONGODB_URI must be a mongodb:// URI');
    expect(message).toContain('FLAG must be true or false');
    expect(message).not.toContain('\n');
  });

  it('refuses a subject prefix that is not dot-terminated tokens', () => {
    expect(() =>
      parseEnv(schema, { NATS_URL: 'n', MONGODB_URI: 'mongodb://h', NATS_SUBJECT_PREFIX: 'a.*' }),
    ).toThrow(/NATS_SUBJECT_PREFIX/);
    expect(
      parseEnv(z.object({ NATS_SUBJECT_PREFIX: serviceEnvSchema.shape.NATS_SUBJECT_PREFIX }), {
        NATS_SUBJECT_PREFIX: 'staging.',
      }),
    ).toEqual({ NATS_SUBJECT_PREFIX: 'staging.' });
  });

  it('reads JETSTREAM_REPLICAS as a count of 1 to 5, 1 when unset', () => {
    const env = { NATS_URL: 'n', MONGODB_URI: 'mongodb://h' };
    expect(parseEnv(schema, env).JETSTREAM_REPLICAS).toBe(1);
    expect(parseEnv(schema, { ...env, JETSTREAM_REPLICAS: '3' }).JETSTREAM_REPLICAS).toBe(3);
    for (const bad of ['0', '6', '2.5', 'three'])
      expect(() => parseEnv(schema, { ...env, JETSTREAM_REPLICAS: bad })).toThrow(
        /JETSTREAM_REPLICAS/,
      );
  });
});
