/**
 * How every evalflow worker polls and holds work, shared by the composition root and the
 * orchestration benchmark so the benchmark measures what users run. Heartbeats are sent at
 * least every 2 s (not the SDK's 0.8 × heartbeat timeout), so cancellation reaches an activity
 * at once and a dead worker's activity times out soon; a workflow task left on a dead worker's
 * sticky queue moves to the shared queue after 3 s. A run's host stages are local activities
 * that keep its workflow task open while they run, holding a workflow task slot: the SDK's
 * 40 slots would leave the 41st run of a batch waiting for another run's stage to end.
 */
export const WORKER_TUNING = {
  maxConcurrentWorkflowTaskExecutions: 200,
  maxConcurrentLocalActivityExecutions: 200,
  maxHeartbeatThrottleInterval: '2s',
  defaultHeartbeatThrottleInterval: '2s',
  stickyQueueScheduleToStartTimeout: '3s',
} as const;
