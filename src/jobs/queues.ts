// The tool's job queues, by what their jobs do. A job's key is the submission or assignment it acts on.
export const QUEUES = {
  /** Send a received submission's file to the service. */
  upload: 'submission-upload',
  /** Ask the service whether a paper still being analysed is done. */
  poll: 'submission-poll',
  /** Read a finished paper back from the service (after a callback or a poll) and store its result. */
  result: 'submission-result',
  /** Create an assignment's folder at the service, or apply its settings to it. */
  folder: 'assignment-folder',
  /** Post a submission's score to the LMS gradebook. */
  grade: 'grade-post',
  /** Download an asset an LMS announced (Asset Processor) and admit it as a submission. */
  assetFetch: 'asset-fetch',
  /** Post an asset's report to the LMS (Asset Processor): what its submission's state is now. */
  assetReport: 'asset-report',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
/** Every queue's name, in the order above. */
export const QUEUE_NAMES = Object.values(QUEUES) as [QueueName, ...QueueName[]];
