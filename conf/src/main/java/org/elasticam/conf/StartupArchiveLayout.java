package org.elasticam.conf;

/**
 * What a container's launch script and the JVM it starts (an executor, or the AM) agree on about
 * the node's start-up archives: the files in an archive's directory and the variables the script
 * sets. The script decides before the JVM starts (whether the archive is there); the JVM finds out
 * whether it could use it, and makes it when it was missing or refused. Executors and AMs load
 * different classes, so each has its own archive and class list in the directory of one build of
 * our jar, beside the one copy of the jar both were made from.
 */
public final class StartupArchiveLayout {

  /** Whose start an archive serves: its files in the build's directory. */
  public enum Role {
    EXECUTOR("executor.jsa", "classes.lst", "elasticam-startup.classlist"),
    AM("am.jsa", "am-classes.lst", "elasticam-am-startup.classlist");

    /** The archive. */
    public final String archive;
    /** The class list the archive was made from, kept to make it again. */
    public final String classList;
    /** The class list a JVM started without the archive writes, in its {@code java.io.tmpdir}. */
    public final String ownClassList;

    Role(String archive, String classList, String ownClassList) {
      this.archive = archive;
      this.classList = classList;
      this.ownClassList = ownClassList;
    }
  }

  /** The copy of our jar the archives were made from (its size and time are what the JVM checks). */
  public static final String JAR = "elasticam.jar";
  /** The archive's directory for this jar and Java home. */
  public static final String ENV_DIR = "ELASTICAM_STARTUP_ARCHIVE";
  /** {@link #GIVEN}: the JVM was given the archive; {@link #ABSENT}: there was none, it writes its class list. */
  public static final String ENV_STATE = "ELASTICAM_STARTUP_ARCHIVE_STATE";
  /** Our jar as the container localized it: what the archive's copy is made from. */
  public static final String ENV_SOURCE_JAR = "ELASTICAM_STARTUP_ARCHIVE_SOURCE";
  public static final String GIVEN = "given";
  public static final String ABSENT = "absent";

  private StartupArchiveLayout() {}
}
