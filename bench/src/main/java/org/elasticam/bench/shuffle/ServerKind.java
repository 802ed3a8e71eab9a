package org.elasticam.bench.shuffle;

/** The servers measured side by side, and the main each runs in its own JVM. */
public enum ServerKind {
  OURS("ElasticAM", OursServerMain.class),
  SHUFFLE_HANDLER("ShuffleHandler", HadoopServerMain.class),
  SENDFILE("sendfile", SendfileServerMain.class);

  private final String label;
  private final Class<?> main;

  ServerKind(String label, Class<?> main) {
    this.label = label;
    this.main = main;
  }

  public String label() {
    return label;
  }

  public Class<?> main() {
    return main;
  }

  /** ours, hadoop or sendfile. */
  public static ServerKind parse(String text) {
    return switch (text) {
      case "ours" -> OURS;
      case "hadoop" -> SHUFFLE_HANDLER;
      case "sendfile" -> SENDFILE;
      default -> throw new IllegalArgumentException("a server is ours, hadoop or sendfile: " + text);
    };
  }

  public String key() {
    return switch (this) {
      case OURS -> "ours";
      case SHUFFLE_HANDLER -> "hadoop";
      case SENDFILE -> "sendfile";
    };
  }
}
