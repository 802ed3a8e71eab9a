package org.elasticam.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigurationDocTest {

  private static final Path DOC = Path.of("..", "docs", "configuration.md");

  @Test
  void committedDocsMatchTheKeys() throws IOException {
    assertTrue(Files.exists(DOC), "docs/configuration.md is missing; run: mvn -q -pl conf exec:java");
    assertEquals(ConfigDocs.render(), Files.readString(DOC, StandardCharsets.UTF_8),
        "docs/configuration.md is stale; regenerate it with: mvn -q -pl conf exec:java");
  }

  @Test
  void everyKeyIsDocumented() {
    String md = ConfigDocs.render();
    AllKeys.all().forEach(k -> assertTrue(md.contains("`" + k.name() + "`"), k.name()));
  }
}
