package org.elasticam.conf;

/**
 * What an executor's launch script and the executor agree on about the node's start-up archive:
 * the files in its directory and the variables the script sets. The script decides before the JVM
 * starts (whether the archive is there); the executor finds out whether the JVM could use it,
 * and makes it when it was missing or refused.
 */
public final class StartupArchiveLayout {

  /** The archive, and the copy of our jar it was made from (its size and time are what the JVM checks). */
  public static final String ARCHIVE = "executor.jsa";
  public static final String JAR = "elasticam.jar";
  /** The class list an archive was made from, kept to make it again. */
  public static final String CLASS_LIST = "classes.lst";
  /** The class list an executor without an archive writes, in its {@code java.io.tmpdir}. */
  public static final String OWN_CLASS_LIST = "elasticam-startup.classlist";
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
