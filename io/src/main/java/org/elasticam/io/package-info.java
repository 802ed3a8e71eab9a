/**
 * Files for jobs on any Hadoop file system. In a job's {@code stages}: {@link FileInputs} turns
 * input paths into one task per split, each preferring its block's hosts. In a task:
 * {@link FileSplit#of} names the task's split and {@link TextLines} (or an {@link InputFormat} of
 * the job's own) reads its records; {@link OutputFiles} writes into the attempt's output directory,
 * which the runtime commits ({@link org.elasticam.io.commit.OutputCommit}).
 */
package org.elasticam.io;
