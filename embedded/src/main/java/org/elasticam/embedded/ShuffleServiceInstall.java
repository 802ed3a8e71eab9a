package org.elasticam.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Whether and how each NodeManager gets the ElasticAM shuffle service, from its shaded jar
 * ({@code shuffle-aux-service/target/elasticam-shuffle-<version>.jar}), the two ways the README's
 * "Installing the shuffle service" describes:
 *
 * <ul>
 *   <li>{@link Mode#CLASSPATH}: the jar on the NodeManager's classpath. In this JVM that is a class
 *       loader over the jar whose parent is this JVM's (Hadoop's) classes, except that ElasticAM's
 *       own packages come only from the jar — as on a real NodeManager, whose classpath has no
 *       other ElasticAM jar;</li>
 *   <li>{@link Mode#ISOLATED}: {@code yarn.nodemanager.aux-services.<name>.classpath}, the
 *       NodeManager's own isolated class loader.</li>
 * </ul>
 *
 * @param mode {@link Mode#NONE} leaves the NodeManagers as they are
 * @param jar the shaded jar (ignored for NONE)
 */
public record ShuffleServiceInstall(Mode mode, Path jar) {

  /** The aux-service name the README configures. */
  public static final String SERVICE_NAME = "elasticam_shuffle";
  public static final String SERVICE_CLASS = "org.elasticam.shuffle.service.ElasticamShuffleService";

  public enum Mode { NONE, CLASSPATH, ISOLATED }

  public ShuffleServiceInstall {
    Objects.requireNonNull(mode, "mode");
    if (mode != Mode.NONE) {
      Objects.requireNonNull(jar, "jar");
      jar = jar.toAbsolutePath().normalize();
      if (!Files.isRegularFile(jar)) {
        throw new IllegalArgumentException("no shuffle service jar at " + jar + "; build shuffle-aux-service first");
      }
    }
  }

  public static ShuffleServiceInstall none() {
    return new ShuffleServiceInstall(Mode.NONE, null);
  }

  public static ShuffleServiceInstall onClasspath(Path jar) {
    return new ShuffleServiceInstall(Mode.CLASSPATH, jar);
  }

  public static ShuffleServiceInstall isolated(Path jar) {
    return new ShuffleServiceInstall(Mode.ISOLATED, jar);
  }

  public boolean installed() {
    return mode != Mode.NONE;
  }
}
