package org.elasticam.conf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;

/**
 * Generates {@code docs/configuration.md} from the keys, so the docs cannot drift from the code.
 * {@code mvn -q -pl conf exec:java} rewrites the file; a test fails when the committed one is stale.
 */
public final class ConfigDocs {

  private ConfigDocs() {}

  public static String render() {
    StringBuilder md = new StringBuilder();
    md.append("# Configuration\n\n")
        .append("<!-- Generated from the keys in the conf module by org.elasticam.conf.ConfigDocs;")
        .append(" do not edit. Regenerate: mvn -q -pl conf exec:java -->\n\n")
        .append("Every key lives under `elasticam.` and can be set in yarn-site.xml, with `-D key=value`")
        .append(" on the client's command line, or with `--conf key=value`. Durations take a unit")
        .append(" (`500ms`, `60s`, `2min`, `1h`, `infinite`); a bare number is read in the unit the")
        .append(" type column names, as Spark reads the same knob. Sizes take `k`, `m`, `g` (`512m`, `4g`);")
        .append(" a bare number is MiB. Invalid values stop submission with one line per broken rule;")
        .append(" an unknown `elasticam.*` key gets a warning naming the closest known key.\n");
    for (Map.Entry<String, List<ConfigKey<?>>> section : AllKeys.bySection().entrySet()) {
      md.append("\n## ").append(section.getKey()).append("\n\n")
          .append("| key | type | default | meaning |\n")
          .append("|---|---|---|---|\n");
      for (ConfigKey<?> k : section.getValue()) {
        md.append("| `").append(k.name()).append("` | ").append(escape(k.type().description()))
            .append(" | ").append(escape(k.isSecret() ? "(secret)" : k.defaultDoc()))
            .append(" | ").append(escape(k.doc())).append(" |\n");
      }
    }
    md.append("\n## Environment variables of containers\n\n")
        .append("| key | meaning |\n")
        .append("|---|---|\n")
        // In a code span "<" is literal: no escaping there.
        .append("| `").append(EnvironmentKeys.AM_ENV_PREFIX + "<NAME>").append("` | Sets variable NAME in the AM's")
        .append(" container, literally (no expansion). `JAVA_HOME` points the AM at another Java than the node's;")
        .append(" without it the AM runs on the Java the NodeManager gives containers. |\n")
        .append("| `").append(EnvironmentKeys.EXECUTOR_ENV_PREFIX + "<NAME>").append("` | Sets variable NAME in every")
        .append(" executor's container, literally. `JAVA_HOME` as for the AM; `CLASSPATH` is appended to the")
        .append(" executor's own. |\n");
    return md.toString();
  }

  private static String escape(String s) {
    return s.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** Writes the docs to the path given as the only argument. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ConfigDocs <path to docs/configuration.md>");
      System.exit(2);
    }
    Path out = Paths.get(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, render().getBytes(StandardCharsets.UTF_8));
    System.out.println("wrote " + out.toAbsolutePath().normalize());
  }
}
