package org.elasticam.executor.shuffle;

import java.io.IOException;
import org.elasticam.api.Counter;
import org.elasticam.api.ShuffleInput;
import org.elasticam.api.ShuffleOutput;

/**
 * A task's shuffle output and inputs as it sees them, counting records and their bytes as the
 * shuffle stores them ({@link Records#size}): what a map writes sums to its partition blocks'
 * lengths, and a reducer that reads all of its input counts the same records and bytes its maps
 * wrote for its partition.
 */
public final class CountedShuffle {

  private CountedShuffle() {}

  /** {@code out}, counting each record written. */
  public static ShuffleOutput output(ShuffleOutput out, Counter records, Counter bytes) {
    return new ShuffleOutput() {
      @Override
      public int partitions() {
        return out.partitions();
      }

      @Override
      public int partitionOf(byte[] key) {
        return out.partitionOf(key);
      }

      @Override
      public void write(byte[] key, byte[] value) throws IOException {
        out.write(key, value);
        records.increment();
        bytes.add(Records.size(key, value));
      }

      @Override
      public void writeOwned(byte[] key, byte[] value) throws IOException {
        out.writeOwned(key, value);
        records.increment();
        bytes.add(Records.size(key, value));
      }
    };
  }

  /** {@code in}, counting each record {@link ShuffleInput#next()} moves to. */
  public static ShuffleInput input(ShuffleInput in, Counter records, Counter bytes) {
    return new ShuffleInput() {
      @Override
      public boolean next() throws IOException {
        if (!in.next()) {
          return false;
        }
        records.increment();
        bytes.add(Records.size(in.key(), in.value()));
        return true;
      }

      @Override
      public byte[] key() {
        return in.key();
      }

      @Override
      public byte[] value() {
        return in.value();
      }
    };
  }
}
