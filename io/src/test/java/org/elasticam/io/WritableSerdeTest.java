package org.elasticam.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;

class WritableSerdeTest {

  @Test
  void writablesRoundTripAndEqualValuesHaveEqualBytes() {
    WritableSerde<Text> text = WritableSerde.of(Text.class);
    for (String s : new String[] {"", "a", "héllo wörld", "x".repeat(1_000)}) {
      assertEquals(new Text(s), text.decode(text.encode(new Text(s))));
      assertTrue(Arrays.equals(text.encode(new Text(s)), text.encode(new Text(s))));
    }
    WritableSerde<LongWritable> longs = WritableSerde.of(LongWritable.class);
    assertEquals(new LongWritable(-7), longs.decode(longs.encode(new LongWritable(-7))));
  }

  @Test
  void bytesThatAreNotOneWholeValueAreRefusedWithTheReason() {
    WritableSerde<IntWritable> ints = WritableSerde.of(IntWritable.class);
    IllegalArgumentException shortInput = assertThrows(IllegalArgumentException.class,
        () -> ints.decode(new byte[] {1, 2}));
    assertTrue(shortInput.getMessage().startsWith("2 bytes are not a org.apache.hadoop.io.IntWritable"),
        shortInput.getMessage());
    IllegalArgumentException trailing = assertThrows(IllegalArgumentException.class,
        () -> ints.decode(new byte[] {0, 0, 0, 1, 9}));
    assertTrue(trailing.getMessage().contains("of 4 and more"), trailing.getMessage());
  }
}
