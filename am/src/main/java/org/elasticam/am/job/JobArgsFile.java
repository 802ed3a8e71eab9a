package org.elasticam.am.job;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The job's command line, from the client to the ApplicationMaster, as a JSON array of strings in a
 * file the AM's container localizes. A launch command passes through the NodeManager's marker
 * expansion and two shells; a file carries every byte the user typed ({@code $}, quotes, newlines,
 * {@code {{…}}}, any script) unchanged, and has no length limit.
 */
public final class JobArgsFile {

  private static final ObjectMapper JSON = new ObjectMapper();

  private JobArgsFile() {}

  public static void write(OutputStream out, List<String> args) throws IOException {
    out.write(JSON.writeValueAsBytes(args));
  }

  public static List<String> read(Path file) throws IOException {
    return JSON.readValue(file.toFile(), new TypeReference<List<String>>() { });
  }
}
