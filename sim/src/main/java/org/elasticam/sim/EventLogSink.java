package org.elasticam.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Map;
import java.util.function.LongSupplier;
import org.elasticam.report.events.EventWriter;

/**
 * The event log of a simulated run, in the AM's format (DESIGN §3): one JSON object per line with
 * {@code ts} and {@code event} first, then the event's fields in the order given. {@code ts} is
 * simulated time on a fixed epoch base, so a report tool reads a simulated run like a real one and
 * two runs give the same bytes.
 */
interface EventLogSink extends EventWriter {

  /** 2023-11-14T22:13:20Z: simulated time 0. Fixed, so outputs never depend on when they were made. */
  long EPOCH_BASE_MS = 1_700_000_000_000L;

  EventLogSink NONE = (event, kv) -> {};

  /** A sink writing lines to {@code out}; I/O errors surface as {@link UncheckedIOException}. */
  static EventLogSink to(Writer out, LongSupplier simulatedNowMs) {
    ObjectMapper json = JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
    return (event, kv) -> {
      Map<String, Object> m = event.line(EPOCH_BASE_MS + simulatedNowMs.getAsLong(), kv);
      try {
        out.write(json.writeValueAsString(m));
        out.write('\n');
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot encode event " + event, e);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }
}
