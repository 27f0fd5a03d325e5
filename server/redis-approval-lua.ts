// The shared approvals' atomic steps as Lua scripts run by EVAL (Redis and Valkey alike); keys are built from
// the prefix in ARGV[1], as in redis-cluster-lua.ts, whose lease and replica keys they read. Requests pending
// are JSON values of one hash; an answered request's claim is a hash of its own, kept for ANSWER_KEPT_MS.

/** Whether replica `id` still holds its lease in boot `epoch`. */
const ALIVE = `
local function alive(P, id, epoch)
  local lease = redis.call('GET', P .. 'lease:' .. id)
  return lease ~= false and tonumber(lease) == tonumber(epoch)
    and redis.call('HGET', P .. 'replica:' .. id, 'status') == 'UP'
end
local function markLost(P, id, owner, keptMs)
  local akey = P .. 'approval:' .. id
  redis.call('HSET', akey, 'state', 'LOST', 'owner', owner)
  redis.call('PEXPIRE', akey, keptMs)
end
`;

/** ARGV: prefix, keptMs. Answers the entries of live owners; the others are dropped, their claims LOST. */
export const PENDING = `${ALIVE}
local P = ARGV[1]
local listed = {}
local all = redis.call('HGETALL', P .. 'approvals')
for i = 1, #all, 2 do
  local entry = cjson.decode(all[i + 1])
  if alive(P, entry.replicaId, entry.epoch) then
    table.insert(listed, all[i + 1])
  else
    redis.call('HDEL', P .. 'approvals', all[i])
    markLost(P, all[i], entry.replicaId, ARGV[2])
  end
end
return listed
`;

/**
 * ARGV: prefix, id, answer JSON, answering replica, keptMs. The first claim of a pending request wins:
 * {'CLAIMED', owner, epoch}; later ones get {'ANSWERED', first answer JSON}, or {'LOST', owner} once the
 * owner lost its lease; {'NOT_FOUND'} when nothing with that id was pending. The owner is told by PUBLISH
 * unless it is the one answering.
 */
export const CLAIM = `${ALIVE}
local P, id = ARGV[1], ARGV[2]
local akey = P .. 'approval:' .. id
local held = redis.call('HMGET', akey, 'state', 'answer', 'owner')
if held[1] == 'LOST' then return {'LOST', held[3]} end
if held[1] then return {'ANSWERED', held[2]} end
local raw = redis.call('HGET', P .. 'approvals', id)
if not raw then return {'NOT_FOUND'} end
redis.call('HDEL', P .. 'approvals', id)
local entry = cjson.decode(raw)
if not alive(P, entry.replicaId, entry.epoch) then
  markLost(P, id, entry.replicaId, ARGV[5])
  return {'LOST', entry.replicaId}
end
redis.call('HSET', akey, 'state', 'CLAIMED', 'answer', ARGV[3], 'owner', entry.replicaId, 'epoch', entry.epoch)
redis.call('PEXPIRE', akey, ARGV[5])
if entry.replicaId ~= ARGV[4] then
  redis.call('PUBLISH', P .. 'approvals', cjson.encode({kind = 'answered', id = id, owner = entry.replicaId}))
end
return {'CLAIMED', entry.replicaId, entry.epoch}
`;

/** ARGV: prefix, id. {'DONE', outcome JSON}, {'WAITING'}, or {'LOST', owner} once the owner lost its lease. */
export const CONFIRMATION = `${ALIVE}
local P, id = ARGV[1], ARGV[2]
local outcome = redis.call('GET', P .. 'approval-outcome:' .. id)
if outcome then return {'DONE', outcome} end
local held = redis.call('HMGET', P .. 'approval:' .. id, 'owner', 'epoch')
if not held[1] or not alive(P, held[1], held[2]) then return {'LOST', held[1] or ''} end
return {'WAITING'}
`;

/**
 * ARGV: prefix, replica id, its approvers, ttlMs, announce ('1'). Records the count until now + ttl (the
 * server's clock, the same for every replica) and answers the sum of the others' unexpired counts.
 */
export const COUNT_APPROVERS = `
local P, id = ARGV[1], ARGV[2]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('HSET', P .. 'approvers', id, ARGV[3] .. ':' .. string.format('%.0f', now + tonumber(ARGV[4])))
local others = 0
local all = redis.call('HGETALL', P .. 'approvers')
for i = 1, #all, 2 do
  if all[i] ~= id then
    local count, untilMs = string.match(all[i + 1], '^(%d+):(%d+)$')
    if count and tonumber(untilMs) > now then others = others + tonumber(count) end
  end
end
if ARGV[5] == '1' then redis.call('PUBLISH', P .. 'approvals', cjson.encode({kind = 'approvers'})) end
return others
`;
