package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupClassPathTest {

  @TempDir Path dir;

  /** Records what the agent adds to the system class loader, in order. */
  private static final class Appended implements Instrumentation {
    final List<String> jars = new ArrayList<>();

    @Override
    public void appendToSystemClassLoaderSearch(JarFile jar) {
      jars.add(Path.of(jar.getName()).getFileName().toString());
    }

    @Override public void addTransformer(ClassFileTransformer t, boolean canRetransform) { }
    @Override public void addTransformer(ClassFileTransformer t) { }
    @Override public boolean removeTransformer(ClassFileTransformer t) { return false; }
    @Override public boolean isRetransformClassesSupported() { return false; }
    @Override public void retransformClasses(Class<?>... classes) { }
    @Override public boolean isRedefineClassesSupported() { return false; }
    @Override public void redefineClasses(ClassDefinition... definitions) { }
    @Override public boolean isModifiableClass(Class<?> theClass) { return false; }
    @Override public Class<?>[] getAllLoadedClasses() { return new Class<?>[0]; }
    @Override public Class<?>[] getInitiatedClasses(ClassLoader loader) { return new Class<?>[0]; }
    @Override public long getObjectSize(Object objectToSize) { return 0; }
    @Override public void appendToBootstrapClassLoaderSearch(JarFile jarfile) { }
    @Override public boolean isNativeMethodPrefixSupported() { return false; }
    @Override public void setNativeMethodPrefix(ClassFileTransformer t, String prefix) { }
    @Override public void redefineModule(Module m, java.util.Set<Module> r, java.util.Map<String, java.util.Set<Module>> e,
        java.util.Map<String, java.util.Set<Module>> o, java.util.Set<Class<?>> u,
        java.util.Map<Class<?>, List<Class<?>>> p) { }
    @Override public boolean isModifiableModule(Module module) { return false; }
  }

  private Path jar(Path d, String name) throws IOException {
    Files.createDirectories(d);
    Path p = d.resolve(name);
    new JarOutputStream(Files.newOutputStream(p)).close();
    return p;
  }

  @Test
  void wildcardsAreExpandedLikeTheLauncherAndDirectoriesAndMissingEntriesLeftOut() throws IOException {
    Path lib = dir.resolve("lib");
    jar(lib, "a.jar");
    jar(lib, "B.JAR");
    Files.writeString(lib.resolve("notes.txt"), "x");
    Files.createDirectories(lib.resolve("sub.jar")); // a directory with a jar's name is no jar
    Path single = jar(dir.resolve("one"), "single.jar");
    String cp = dir.resolve("conf") + ":" + lib + "/*:" + single + ":" + dir.resolve("missing.jar") + "::" + lib + "/*";
    List<String> names = StartupClassPath.jars(cp).stream().map(p -> p.getFileName().toString())
        .collect(Collectors.toList());
    assertEquals(3, names.size(), names.toString());
    assertTrue(names.containsAll(List.of("a.jar", "B.JAR", "single.jar")), names.toString());
    assertEquals("single.jar", names.get(2), "the classpath's order");
  }

  @Test
  void loggingJarsComeAtStartAndTheRestOnceInOrderWhenCompleted() throws IOException {
    Path lib = dir.resolve("lib");
    jar(lib, "hadoop-common-3.4.1.jar");
    jar(lib, "slf4j-api-1.7.36.jar");
    Path other = dir.resolve("other");
    jar(other, "reload4j-1.2.22.jar");
    jar(other, "slf4j-reload4j-1.7.36.jar");
    Path guava = jar(dir.resolve("g"), "guava-27.0-jre.jar");
    Path broken = dir.resolve("broken.jar");
    Files.writeString(broken, "not a zip");
    Appended agent = new Appended();
    StartupClassPath.install(agent, lib + "/hadoop-common-3.4.1.jar:" + lib + "/slf4j-api-1.7.36.jar:" + other + "/*:"
        + guava + ":" + broken);
    assertEquals(3, agent.jars.size(), "the logging jars only, before main: " + agent.jars);
    assertTrue(agent.jars.containsAll(List.of("slf4j-api-1.7.36.jar", "reload4j-1.2.22.jar",
        "slf4j-reload4j-1.7.36.jar")), agent.jars.toString());
    assertTrue(StartupClassPath.describe().contains("held back until registered"), StartupClassPath.describe());

    assertEquals(3, StartupClassPath.complete(), "hadoop-common, guava and the broken one were tried");
    assertEquals(List.of("hadoop-common-3.4.1.jar", "guava-27.0-jre.jar"), agent.jars.subList(3, agent.jars.size()));
    assertEquals(0, StartupClassPath.complete(), "once");
    assertEquals(5, agent.jars.size());
    String d = StartupClassPath.describe();
    assertTrue(d.contains("added after registering") && d.contains("not added: " + broken), d);
  }

  @Test
  void onlyLoggingLibrariesAreNeededAtStart() {
    for (String n : List.of("slf4j-api-1.7.36.jar", "slf4j-reload4j-1.7.36.jar", "reload4j-1.2.22.jar",
        "log4j-1.2.17.jar", "log4j-slf4j-impl-2.17.jar", "logback-classic-1.2.jar", "SLF4J-API.jar")) {
      assertTrue(StartupClassPath.neededAtStart(n), n);
    }
    for (String n : List.of("hadoop-common-3.4.1.jar", "jul-to-slf4j-1.7.jar", "commons-logging-1.2.jar", "guava.jar")) {
      assertTrue(!StartupClassPath.neededAtStart(n), n);
    }
  }
}
