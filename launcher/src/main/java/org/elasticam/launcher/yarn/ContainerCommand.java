package org.elasticam.launcher.yarn;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.elasticam.conf.StartupArchiveLayout;

/**
 * A container's launch command, written for the way a NodeManager runs it. The NodeManager first
 * replaces its markers ({@code <LOG_DIR>}, {@code <CPS>}, {@code {{}} and {@code }}}) anywhere in
 * the text, then writes {@code exec /bin/bash -c "<command>"} into the container's launch script:
 * the command passes through two shells, the script's (inside double quotes) and {@code bash -c}.
 * A word added with {@link #arg} reaches the process as exactly that string: single-quoted for the
 * inner shell, then escaped for the outer double quotes. A word added with {@link #expanded} is meant
 * to be expanded ({@code {{JAVA_HOME}}/bin/java}, {@code <LOG_DIR>/stdout}) and stays one word
 * whatever it expands to (a directory with a space in it); {@link #redirect} sends a stream to one.
 *
 * <p>The markers cannot be escaped: the NodeManager replaces them before any shell runs. A string
 * that holds one is refused here rather than silently changed; what users type (a job's class and
 * arguments) never goes on a command line at all but in a file the container reads.
 */
public final class ContainerCommand {

  private static final String LOG_DIR = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
  private static final List<String> MARKERS = List.of(ApplicationConstants.LOG_DIR_EXPANSION_VAR,
      ApplicationConstants.CLASS_PATH_SEPARATOR, ApplicationConstants.PARAMETER_EXPANSION_LEFT,
      ApplicationConstants.PARAMETER_EXPANSION_RIGHT);

  private final List<String> words = new ArrayList<>();

  /**
   * A word of ours whose markers and {@code $VARIABLES} the NodeManager and the outer shell
   * expand; double-quoted for the inner shell, so a value with a space in it stays one word.
   */
  public ContainerCommand expanded(String word) {
    words.add("\\\"" + word + "\\\"");
    return this;
  }

  /** {@code 1>} or {@code 2>} to a file named by an {@link #expanded} word. */
  public ContainerCommand redirect(String operator, String expandedPath) {
    words.add(operator + "\\\"" + expandedPath + "\\\"");
    return this;
  }

  /** Shell syntax of ours, as it is ({@code |}, {@code &&}); never from user input. */
  public ContainerCommand shell(String syntax) {
    words.add(syntax);
    return this;
  }

  /**
   * How the AM's and the executors' JVMs log: the container log4j file in our jar, set up by our
   * configurator, into {@code logFile} in the container's log directory.
   */
  public ContainerCommand containerLogging(String logFile) {
    return arg("-Dlog4j.configuration=" + ExecutorLaunchSpec.CONTAINER_LOG4J)
        .arg("-Dlog4j.configuratorClass=" + ExecutorLaunchSpec.CONTAINER_LOG4J_CONFIGURATOR)
        .expanded("-Delasticam.log.dir=" + ApplicationConstants.LOG_DIR_EXPANSION_VAR)
        .arg("-Delasticam.log.file=" + logFile);
  }

  /** A word the process receives exactly as given. */
  public ContainerCommand arg(String value) {
    // A first word like x=y would be taken for an assignment unless quoted.
    words.add(words.isEmpty() && value.indexOf('=') >= 0 ? singleQuoted(refuseMarkers(value)) : quoted(value));
    return this;
  }

  /**
   * A word the process receives as given, but for {@code <LOG_DIR>}, which becomes the container's
   * log directory (a JVM option such as {@code -Xlog:gc:file=<LOG_DIR>/gc.log}).
   */
  public ContainerCommand argWithLogDir(String value) {
    String[] parts = value.split(java.util.regex.Pattern.quote(LOG_DIR), -1);
    if (parts.length == 1) {
      return arg(value);
    }
    StringBuilder inner = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        inner.append('"').append(LOG_DIR).append('"');
      }
      inner.append("'").append(refuseMarkers(parts[i]).replace("'", "'\\''")).append("'");
    }
    words.add(forDoubleQuotes(inner.toString()));
    return this;
  }

  /** {@code --name value}, both received exactly as given. */
  public ContainerCommand option(String name, Object value) {
    return arg(name).arg(String.valueOf(value));
  }

  /**
   * Before the JVM starts: exits with {@code exitCode}, and a line on {@code stderrFile} naming
   * the version found and the key to set, when the container has no Java at {@code JAVA_HOME} or
   * one older than {@code minimum} (from the JDK's {@code release} file, else {@code java -version}).
   * A version it cannot read is let through: the JVM then says what is wrong. Follow it with
   * {@code shell("exec")} and the java command.
   *
   * @param who the container, as the message names it ("the AM container")
   * @param key the setting that points the container at another Java home
   */
  public ContainerCommand requireJava(int minimum, int exitCode, String who, String key, String stderrFile) {
    String need = "ElasticAM's AM and executors need Java " + minimum + " or later: set " + key + " to a Java "
        + minimum + " home on the nodes";
    String check = "{ j=\"$JAVA_HOME\"; "
        + "if [ -z \"$j\" ] || [ ! -x \"$j/bin/java\" ]; then echo \"elasticam: " + who + " on $NM_HOST has no Java at"
        + " JAVA_HOME='$j'; " + need + ", or give the NodeManagers a JAVA_HOME (yarn.nodemanager.env-whitelist)\"; exit "
        + exitCode + "; fi; "
        + "v=$(sed -n 's/^JAVA_VERSION=\"\\([^\"]*\\)\".*/\\1/p' \"$j/release\" 2>/dev/null); "
        + "[ -n \"$v\" ] || v=$(\"$j/bin/java\" -version 2>&1 | sed -n '1s/^[^\"]*\"\\([^\"]*\\)\".*/\\1/p'); "
        + "case \"$v\" in 1.*) m=${v#1.}; m=${m%%.*} ;; *) m=${v%%[!0-9]*} ;; esac; "
        + "if [ -n \"$m\" ] && [ \"$m\" -lt " + minimum + " ]; then echo \"elasticam: " + who + "'s Java is $v"
        + " (JAVA_HOME=$j on $NM_HOST); " + need + "\"; exit " + exitCode + "; fi; }";
    words.add(forDoubleQuotes(check));
    return redirect("2>>", stderrFile).shell("1>&2").shell("&&");
  }

  /**
   * Before the JVM starts: finds this node's start-up archive for {@code archive}'s jar and the
   * container's Java home. When it is there, the JVM is given it and its jar goes first on the
   * CLASSPATH (the archive holds classes of that file only, checked by its size and time), if the
   * container's user owns the directory and both files; when
   * not, the JVM writes the classes it loads to a list, from which the executor makes the archive.
   * Either way {@link StartupArchiveLayout#ENV_DIR} and {@link StartupArchiveLayout#ENV_STATE} tell the executor
   * what happened. Follow it with the java command and {@link #startupArchiveOption()} among its options.
   */
  public ContainerCommand startupArchive(StartupArchive archive) {
    return startupArchive(archive, StartupArchiveLayout.Role.EXECUTOR);
  }

  /** {@link #startupArchive(StartupArchive)} for the archive of {@code role}'s JVM. */
  public ContainerCommand startupArchive(StartupArchive archive, StartupArchiveLayout.Role role) {
    String base = archive.baseDir()
        .map(d -> "'" + refuseMarkers(d).replace("'", "'\\''") + "'")
        .orElse("${LOCAL_DIRS:+${LOCAL_DIRS%%,*}/../../elasticam-startup}");
    String d = "$" + StartupArchiveLayout.ENV_DIR;
    String find = "{ b=" + base + "; "
        + "if [ -n \"$b\" ]; then k=$(printf '%s' \"$JAVA_HOME\" | cksum); "
        + StartupArchiveLayout.ENV_DIR + "=\"$b/" + archive.jarDigest() + "-${k%% *}\"; "
        // Only from a directory of this user's, with files of this user's: the JVM runs the jar it finds.
        + "if [ -O \"" + d + "\" ] && [ -r \"" + d + "/" + role.archive + "\" ] && [ -O \"" + d + "/"
        + role.archive + "\" ] && [ -O \"" + d + "/" + StartupArchiveLayout.JAR + "\" ]; "
        + "then " + StartupArchiveLayout.ENV_STATE + "=" + StartupArchiveLayout.GIVEN + "; "
        + "CLASSPATH=\"" + d + "/" + StartupArchiveLayout.JAR + ":$CLASSPATH\"; "
        + "s=\"-XX:SharedArchiveFile=" + d + "/" + role.archive + "\"; "
        + "else " + StartupArchiveLayout.ENV_STATE + "=" + StartupArchiveLayout.ABSENT + "; "
        + "s=\"-XX:DumpLoadedClassList=$PWD/tmp/" + role.ownClassList + "\"; fi; "
        + StartupArchiveLayout.ENV_SOURCE_JAR + "=\"$PWD/" + archive.appJar() + "\"; "
        + "export " + StartupArchiveLayout.ENV_DIR + " " + StartupArchiveLayout.ENV_STATE + " "
        + StartupArchiveLayout.ENV_SOURCE_JAR + " CLASSPATH; "
        // The JVM's default, so that the option below is never an empty word.
        + "else s=-Xshare:auto; fi; }";
    words.add(forDoubleQuotes(find));
    return shell("&&");
  }

  /** The JVM option {@link #startupArchive} chose: the archive to use, or the class list to write. */
  public ContainerCommand startupArchiveOption() {
    words.add(forDoubleQuotes("\"$s\""));
    return this;
  }

  public String build() {
    return String.join(" ", words);
  }

  @Override
  public String toString() {
    return build();
  }

  /**
   * {@code value} as one word of the command that both shells hand on unchanged: single quotes for
   * {@code bash -c}, and {@code \ " $ `} escaped for the double quotes of the launch script around it.
   *
   * @throws IllegalArgumentException when the value holds a NodeManager marker, which no quoting protects
   */
  public static String quoted(String value) {
    refuseMarkers(value);
    if (!value.isEmpty() && value.chars().allMatch(ContainerCommand::plain)) {
      return value;
    }
    return singleQuoted(value);
  }

  private static String singleQuoted(String value) {
    return forDoubleQuotes("'" + value.replace("'", "'\\''") + "'");
  }

  /** Characters no shell treats specially, left unquoted so that commands stay readable in logs. */
  private static boolean plain(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "_-./:=,@%+".indexOf(c) >= 0;
  }

  /**
   * An environment value the container sees exactly as given: the launch script writes
   * {@code export KEY="value"}, one shell inside double quotes.
   *
   * @throws IllegalArgumentException when the value holds a NodeManager marker
   */
  public static String literalEnvValue(String value) {
    return forDoubleQuotes(refuseMarkers(value));
  }

  private static String forDoubleQuotes(String s) {
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' || c == '"' || c == '$' || c == '`') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  private static String refuseMarkers(String value) {
    for (String m : MARKERS) {
      if (value.contains(m)) {
        throw new IllegalArgumentException("'" + value + "' holds " + m
            + ", which the NodeManager replaces in every launch command before it runs");
      }
    }
    return value;
  }
}
