package org.elasticam.launcher.yarn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.elasticam.conf.JavaOptions;

/**
 * What a user adds to a container's JVM: options, classpath entries before ours, and native library
 * directories (the AM's or the executors' {@code extraJavaOptions}, {@code extraClassPath},
 * {@code extraLibraryPath}). Validated at submission; here they become words of the launch command
 * and variables of its environment, each reaching the JVM as written.
 *
 * @param options the options split into words, placeholders not yet replaced
 * @param classPath ':'-separated entries, or empty
 * @param libraryPath ':'-separated directories, or empty
 */
public record JvmSettings(List<String> options, String classPath, String libraryPath) {

  public static final JvmSettings NONE = new JvmSettings(List.of(), "", "");

  public JvmSettings {
    options = List.copyOf(options);
  }

  /** From the keys' raw values, any of them null when unset. */
  public static JvmSettings of(String options, String classPath, String libraryPath) {
    return new JvmSettings(options == null ? List.of() : JavaOptions.split(options),
        classPath == null ? "" : classPath, libraryPath == null ? "" : libraryPath);
  }

  /** The options as words of {@code c}, {@code {{NAME}}} replaced from {@code placeholders}. */
  public void addOptions(ContainerCommand c, Map<String, String> placeholders) {
    for (String option : options) {
      String word = option;
      for (Map.Entry<String, String> p : placeholders.entrySet()) {
        word = word.replace("{{" + p.getKey() + "}}", p.getValue());
      }
      c.argWithLogDir(word);
    }
  }

  /** CLASSPATH with the user's entries first; LD_LIBRARY_PATH with the user's directories first. */
  public void addToEnvironment(Map<String, String> env, List<String> ownClasspath, String separator) {
    List<String> cp = new ArrayList<>();
    if (!classPath.isEmpty()) {
      cp.add(ContainerCommand.literalEnvValue(classPath));
    }
    cp.addAll(ownClasspath);
    env.put(Environment.CLASSPATH.name(), String.join(separator, cp));
    if (!libraryPath.isEmpty()) {
      String after = env.getOrDefault(Environment.LD_LIBRARY_PATH.name(), Environment.LD_LIBRARY_PATH.$$());
      env.put(Environment.LD_LIBRARY_PATH.name(), ContainerCommand.literalEnvValue(libraryPath) + ":" + after);
    }
  }
}
