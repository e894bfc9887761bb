-- push-worker's claim lease (docs/push-worker.md "Exactly once"): the replica holding a 'sending' batch and until when
-- its claim stands. The holder renews it while it sends; another replica given the same record (a rebalance, a
-- redelivery) waits while the lease stands and takes the batch over only once it has lapsed (the holder died), so a
-- batch is not sent by two live workers at once. Rows from before have no lease: they count as lapsed.
alter table push_worker_batches
    add column owner       text,
    add column lease_until timestamptz;
