/** Every key of a Redis and its value, as text (what a test looks through for secrets). */
import { Redis } from 'ioredis';

export async function redisContents(url: string): Promise<string> {
  const client = new Redis(url);
  try {
    const parts: string[] = [];
    for (const name of await client.keys('*')) {
      const type = await client.type(name);
      const value =
        type === 'string'
          ? await client.get(name)
          : type === 'hash'
            ? JSON.stringify(await client.hgetall(name))
            : type === 'list'
              ? JSON.stringify(await client.lrange(name, 0, -1))
              : type === 'set'
                ? JSON.stringify(await client.smembers(name))
                : type === 'zset'
                  ? JSON.stringify(await client.zrange(name, '0', '-1'))
                  : type === 'stream'
                    ? JSON.stringify(await client.xrange(name, '-', '+'))
                    : type;
      parts.push(`${name} ${value}`);
    }
    return parts.join('\n');
  } finally {
    client.disconnect();
  }
}
