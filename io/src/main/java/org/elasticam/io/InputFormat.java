package org.elasticam.io;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;

/**
 * How a job reads the records of a split. A format must read every record that begins inside the
 * split, including the rest of the last one past the split's end, and no record that begins
 * before it: then the splits of a file read each record exactly once. {@link TextLines#FORMAT}
 * reads lines; a job with another format implements this.
 */
@FunctionalInterface
public interface InputFormat<T> {

  RecordReader<T> open(FileSplit split, Configuration conf) throws IOException;
}
