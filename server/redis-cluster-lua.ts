// The cluster's atomic steps as Lua scripts run by EVAL (Redis and Valkey alike). Every key is built from
// the prefix in ARGV[1], so several clusters (or test runs) can share one Redis. Sessions are JSON values
// of one hash; `cjson` ships with the server's Lua.

/** Marks LOST every live session of `id` from an epoch below `below`; answers how many it marked. */
const MARK_LOST = `
local function markLost(P, id, below, now)
  local marked = 0
  local all = redis.call('HGETALL', P .. 'sessions')
  for i = 1, #all, 2 do
    local entry = cjson.decode(all[i + 1])
    if entry.replicaId == id and entry.epoch < below and (entry.status == 'STARTING' or entry.status == 'RUNNING') then
      entry.status = 'LOST'
      entry.endedAt = now
      redis.call('HSET', P .. 'sessions', all[i], cjson.encode(entry))
      marked = marked + 1
    end
  end
  return marked
end
`;

/** Records `seq` as issued when it is the highest yet. */
const RAISE_SEQUENCE = `
local function raiseSequence(rkey, seq)
  if tonumber(redis.call('HGET', rkey, 'seq') or '0') < seq then redis.call('HSET', rkey, 'seq', seq) end
end
`;

/**
 * Whether the boot `epoch` of the replica whose record is `rkey` is fenced, as RENEW would answer it: the
 * record names a later boot, or a reaper marked it DOWN. An absent record (a Redis restarted without its
 * data) fences nobody, and LEFT is written by the boot itself as it shuts down, after which its last events
 * may still arrive. For the writes of a replica's own streams and checkpoint, refused in the step that
 * would make them.
 */
export const FENCED_BOOT = `
local function fencedBoot(rkey, epoch)
  local held = redis.call('HMGET', rkey, 'epoch', 'status')
  if not held[1] then return false end
  return tonumber(held[1]) ~= tonumber(epoch) or held[2] == 'DOWN'
end
`;

/** The key of replica `id`'s record, as the scripts build it from the prefix. */
export function replicaKeyOf(prefix: string, id: string): string {
  return `${prefix}replica:${id}`;
}

/** ARGV: prefix, id, url, leaseMs, now. Answers {epoch, lost, lastSequence}. */
export const JOIN = `${MARK_LOST}
local P, id, now = ARGV[1], ARGV[2], ARGV[5]
local rkey = P .. 'replica:' .. id
local epoch = redis.call('HINCRBY', rkey, 'epoch', 1)
redis.call('HSET', rkey, 'id', id, 'url', ARGV[3], 'status', 'UP', 'sessions', 0, 'lastSeen', now)
redis.call('SET', P .. 'lease:' .. id, epoch, 'PX', ARGV[4])
redis.call('SADD', P .. 'replicas', id)
local lost = markLost(P, id, epoch, now)
return {epoch, lost, tonumber(redis.call('HGET', rkey, 'seq') or '0')}
`;

/** ARGV: prefix, id, epoch, leaseMs, now, live sessions, url. Answers RENEWED, RESTORED or FENCED. */
export const RENEW = `
local P, id, epoch = ARGV[1], ARGV[2], ARGV[3]
local rkey = P .. 'replica:' .. id
local held = redis.call('HMGET', rkey, 'epoch', 'status')
local answer = 'RENEWED'
if not held[1] then
  redis.call('HSET', rkey, 'id', id, 'url', ARGV[7], 'epoch', epoch, 'status', 'UP')
  redis.call('SADD', P .. 'replicas', id)
  answer = 'RESTORED'
elseif tonumber(held[1]) ~= tonumber(epoch) or held[2] ~= 'UP' then
  return 'FENCED'
end
redis.call('SET', P .. 'lease:' .. id, epoch, 'PX', ARGV[4])
redis.call('HSET', rkey, 'lastSeen', ARGV[5], 'sessions', ARGV[6])
return answer
`;

/** ARGV: prefix, now. Marks DOWN each UP replica without a lease, and its sessions LOST; answers their ids. */
export const REAP = `${MARK_LOST}
local P, now = ARGV[1], ARGV[2]
local reaped = {}
for _, id in ipairs(redis.call('SMEMBERS', P .. 'replicas')) do
  local rkey = P .. 'replica:' .. id
  if redis.call('HGET', rkey, 'status') == 'UP' and redis.call('EXISTS', P .. 'lease:' .. id) == 0 then
    redis.call('HSET', rkey, 'status', 'DOWN')
    markLost(P, id, tonumber(redis.call('HGET', rkey, 'epoch')) + 1, now)
    table.insert(reaped, id)
  end
end
return reaped
`;

/** ARGV: prefix, entry JSON, replica id, epoch, session id, sequence. Answers 1 when written. */
export const PUT_SESSION = `${RAISE_SEQUENCE}
local P = ARGV[1]
local rkey = P .. 'replica:' .. ARGV[3]
local held = redis.call('HMGET', rkey, 'epoch', 'status')
if tonumber(held[1]) ~= tonumber(ARGV[4]) or held[2] ~= 'UP' then return 0 end
local old = redis.call('HGET', P .. 'sessions', ARGV[5])
if old and cjson.decode(old).status == 'LOST' then return 0 end
redis.call('HSET', P .. 'sessions', ARGV[5], ARGV[2])
raiseSequence(rkey, tonumber(ARGV[6]))
return 1
`;

/** ARGV: prefix, replica id, sequence. */
export const RESERVE_SEQUENCE = `${RAISE_SEQUENCE}
raiseSequence(ARGV[1] .. 'replica:' .. ARGV[2], tonumber(ARGV[3]))
return 1
`;

/** ARGV: prefix, replica id, epoch. Only the boot that holds the record may leave. */
export const LEAVE = `
local rkey = ARGV[1] .. 'replica:' .. ARGV[2]
if tonumber(redis.call('HGET', rkey, 'epoch')) ~= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', rkey, 'status', 'LEFT', 'sessions', 0)
redis.call('DEL', ARGV[1] .. 'lease:' .. ARGV[2])
return 1
`;

/**
 * ARGV: prefix, replica ids. Answers, for each, its record as HGETALL answers it (empty when absent) and
 * its lease's PTTL.
 */
export const REPLICAS_NAMED = `
local P = ARGV[1]
local records = {}
for i = 2, #ARGV do
  records[#records + 1] = {redis.call('HGETALL', P .. 'replica:' .. ARGV[i]), redis.call('PTTL', P .. 'lease:' .. ARGV[i])}
end
return records
`;

/**
 * ARGV: prefix, session id, the asking replica's id. Answers {entry JSON, its owner's record and the asking
 * replica's record as HGETALL answers them, the owner's lease's PTTL}, or nil for an unknown id: the one
 * read routing makes per forwarded operation, in one round trip; the asker's own record tells it whether
 * it was fenced.
 */
export const SESSION_WITH_OWNER = `
local P = ARGV[1]
local raw = redis.call('HGET', P .. 'sessions', ARGV[2])
if not raw then return false end
local owner = cjson.decode(raw).replicaId
return {raw, redis.call('HGETALL', P .. 'replica:' .. owner), redis.call('HGETALL', P .. 'replica:' .. ARGV[3]), redis.call('PTTL', P .. 'lease:' .. owner)}
`;
