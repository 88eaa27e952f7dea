import { ReplyError } from 'ioredis';
import MaxRetriesPerRequestError from 'ioredis/built/errors/MaxRetriesPerRequestError';
import { isRedisUnavailable, RedisUnavailableError } from '../../src/verification/state/redis-unavailable';

const reply = (message: string): Error => new (ReplyError as new (m: string) => Error)(message);
const sysError = (code: string): Error => Object.assign(new Error(`connect ${code} 127.0.0.1:6379`), { code });

describe('isRedisUnavailable', () => {
  it.each<[string, Error]>([
    ['a closed connection', new Error('Connection is closed.')],
    ['a disconnected client with no offline queue', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['a command timeout', new Error('Command timed out')],
    ['a cluster not ready', new Error("Cluster isn't ready and enableOfflineQueue options is false")],
    ['a cluster without reachable nodes', new Error('None of startup nodes is available')],
    ['too many redirections', new Error('Too many Cluster redirections. Last error: Error: Connection is closed.')],
    ['ioredis MaxRetriesPerRequestError', new MaxRetriesPerRequestError(0) as unknown as Error],
    ['a refused connection', sysError('ECONNREFUSED')],
    ['a reset connection', sysError('ECONNRESET')],
    ['a host that cannot be resolved', sysError('ENOTFOUND')],
    ['CLUSTERDOWN', reply('CLUSTERDOWN The cluster is down')],
    ['LOADING', reply('LOADING Redis is loading the dataset in memory')],
    ['READONLY', reply("READONLY You can't write against a read only replica.")],
    ['MASTERDOWN', reply('MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to no')],
    ['TRYAGAIN', reply('TRYAGAIN Multiple keys request during rehashing of slot')],
    ['OOM', reply("OOM command not allowed when used memory > 'maxmemory'.")],
    ['this adapter finding Redis not serving', new RedisUnavailableError('cluster_state is not ok')],
  ])('when the error is %s, then Redis counts as unavailable (degrade)', (_, err) => {
    expect(isRedisUnavailable(err)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a TypeError in an adapter', new TypeError("Cannot read properties of undefined (reading 'split')")],
    ['a RangeError', new RangeError('Invalid array length')],
    ['a TypeError whose message looks like a connection error', new TypeError('Connection is closed.')],
    ['a WRONGTYPE reply', reply('WRONGTYPE Operation against a key holding the wrong kind of value')],
    ['a script error reply', reply('ERR user_script:1: Script attempted to access nonexistent global variable')],
    ['a NOSCRIPT reply', reply('NOSCRIPT No matching script. Please use EVAL.')],
    ['a plain error of our own', new Error('unexpected record')],
    ['a thrown string', 'boom'],
    ['undefined', undefined],
  ])('when the error is %s, then it is a bug that surfaces (no degrade)', (_, err) => {
    expect(isRedisUnavailable(err)).toBe(false);
  });
});
