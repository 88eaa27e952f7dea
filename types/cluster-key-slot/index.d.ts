// cluster-key-slot ships no types: the one function we use (Redis Cluster's CRC16 hash slot of a key).
declare function calculateSlot(key: string | Buffer): number;
export = calculateSlot;
