package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The module graph of docs/architecture.md, held by the build. Each module may depend only on the
 * modules {@link #ALLOWED} names (main scopes: compile, provided, runtime); the pure modules name
 * no Hadoop and no gRPC and depend only on pure modules; and every ElasticAM package a module's
 * code uses belongs to the module itself or to one it declares (used through another module's
 * dependencies, a seam drifts unseen). Runs in the unit phase and reads the POMs and sources, so it
 * needs no build of its own.
 */
class ModuleGraphTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** Module directory to the modules its main code may depend on; a missing module is a failure. */
  static final Map<String, Set<String>> ALLOWED = new LinkedHashMap<>();

  static {
    allow("conf");
    allow("workload", "conf");
    allow("api");
    // Job files on Hadoop's file systems: user jars, the executor and the AM use it.
    allow("io", "api");
    allow("examples", "api", "io");
    allow("report");
    allow("rpc", "conf");
    allow("shuffle-common", "conf");
    allow("shuffle-server", "shuffle-common", "conf");
    allow("shuffle-aux-service", "shuffle-server", "shuffle-common", "conf");
    allow("allocator", "conf");
    allow("engine", "api", "conf", "allocator", "report", "workload");
    allow("launcher", "allocator", "conf");
    // A container JVM's side of its node's start-up archive: the executor's and the AM's.
    allow("startup", "conf");
    allow("executor", "conf", "api", "io", "examples", "rpc", "shuffle-common", "shuffle-server", "startup");
    allow("testkit", "allocator", "launcher", "shuffle-common");
    allow("sim", "allocator", "engine", "workload", "conf", "api", "report");
    allow("am", "conf", "allocator", "engine", "launcher", "api", "io", "examples", "rpc", "workload", "report", "shuffle-common",
        "startup", "executor");
    allow("embedded");
    allow("bench/spark-reference", "sim", "allocator", "engine", "workload", "conf", "api");
    // Benchmarks and the integration tests measure and drive the whole product.
    allow("bench", "*");
    allow("src-it", "*");
  }

  /** Decision cores and the NodeManager-free server: no Hadoop, no gRPC, in any main scope. */
  static final Set<String> PURE =
      Set.of("conf", "api", "workload", "report", "allocator", "engine", "shuffle-common", "shuffle-server", "sim");

  /** The AM ships the executor's classes in its jar but must not compile against them. */
  static final Map<String, String> RUNTIME_ONLY = Map.of("am", "executor");

  private static void allow(String module, String... deps) {
    ALLOWED.put(module, new TreeSet<>(List.of(deps)));
  }

  record Dependency(String groupId, String artifactId, String scope) {
    boolean mainScope() {
      return !scope.equals("test");
    }
  }

  record Module(String dir, String artifactId, List<Dependency> dependencies) {
    List<Dependency> internal() {
      return dependencies.stream().filter(d -> d.groupId().equals("org.elasticam")).toList();
    }
  }

  private static Map<String, Module> modules;
  private static Map<String, String> moduleByArtifact;
  /** Package name to the module whose main sources hold it. */
  private static Map<String, String> packageOwner;

  @BeforeAll
  static void readTheBuild() throws Exception {
    modules = new LinkedHashMap<>();
    for (String dir : childTexts(parse(ROOT.resolve("pom.xml")), "modules", "module")) {
      Document pom = parse(ROOT.resolve(dir).resolve("pom.xml"));
      Element project = pom.getDocumentElement();
      List<Dependency> deps = new ArrayList<>();
      Element list = child(project, "dependencies");
      if (list != null) {
        for (Element d : children(list, "dependency")) {
          String scope = text(d, "scope");
          deps.add(new Dependency(text(d, "groupId"), text(d, "artifactId"), scope == null ? "compile" : scope));
        }
      }
      modules.put(dir, new Module(dir, text(project, "artifactId"), deps));
    }
    moduleByArtifact = new TreeMap<>();
    modules.values().forEach(m -> moduleByArtifact.put(m.artifactId(), m.dir()));
    packageOwner = new TreeMap<>();
    Map<String, Set<String>> split = new TreeMap<>();
    for (Module m : modules.values()) {
      for (Path source : javaFiles(ROOT.resolve(m.dir()).resolve("src/main/java"))) {
        String pkg = packageOf(Files.readString(source));
        String earlier = packageOwner.putIfAbsent(pkg, m.dir());
        if (earlier != null && !earlier.equals(m.dir())) {
          split.computeIfAbsent(pkg, k -> new TreeSet<>(Set.of(earlier))).add(m.dir());
        }
      }
    }
    assertEquals(Map.of(), split, "a package lives in one module");
  }

  @Test
  void everyModuleIsInTheGraph() {
    assertEquals(new TreeSet<>(modules.keySet()), new TreeSet<>(ALLOWED.keySet()),
        "ModuleGraphTest.ALLOWED names every module of the build, and only those");
  }

  @Test
  void modulesDependOnlyOnWhatTheGraphAllows() {
    List<String> wrong = new ArrayList<>();
    for (Module m : modules.values()) {
      Set<String> allowed = ALLOWED.getOrDefault(m.dir(), Set.of());
      for (Dependency d : m.internal()) {
        String target = moduleByArtifact.get(d.artifactId());
        if (d.mainScope() && !allowed.contains("*") && !allowed.contains(target)) {
          wrong.add(m.dir() + " -> " + target + " (" + d.scope() + ")");
        }
        boolean runtimeOnly = target != null && target.equals(RUNTIME_ONLY.get(m.dir()));
        if (runtimeOnly && !d.scope().equals("runtime")) {
          wrong.add(m.dir() + " -> " + target + " must be runtime scope, is " + d.scope());
        }
      }
    }
    assertEquals(List.of(), wrong, "dependencies outside the module graph");
  }

  @Test
  void pureModulesNameNoHadoopNoGrpcAndOnlyPureModules() throws IOException {
    List<String> wrong = new ArrayList<>();
    for (String dir : PURE) {
      Module m = modules.get(dir);
      for (Dependency d : m.dependencies()) {
        if (!d.mainScope()) {
          continue;
        }
        if (d.groupId().startsWith("org.apache.hadoop") || d.groupId().startsWith("io.grpc")) {
          wrong.add(dir + " depends on " + d.groupId() + ":" + d.artifactId());
        }
        String target = moduleByArtifact.get(d.artifactId());
        if (d.groupId().equals("org.elasticam") && !PURE.contains(target)) {
          wrong.add(dir + " depends on " + target + ", which is not pure");
        }
      }
      for (Path source : javaFiles(ROOT.resolve(dir).resolve("src/main/java"))) {
        String code = code(Files.readString(source));
        if (code.contains("org.apache.hadoop.") || code.contains("io.grpc.")) {
          wrong.add(ROOT.relativize(source) + " uses Hadoop or gRPC");
        }
      }
    }
    assertEquals(List.of(), wrong, "pure modules: " + new TreeSet<>(PURE));
  }

  @Test
  void everyElasticamPackageUsedComesFromADeclaredModule() throws IOException {
    List<String> wrong = new ArrayList<>();
    for (Module m : modules.values()) {
      Set<String> main = new TreeSet<>(Set.of(m.dir()));
      Set<String> test = new TreeSet<>(Set.of(m.dir()));
      for (Dependency d : m.internal()) {
        String target = moduleByArtifact.get(d.artifactId());
        test.add(target);
        if (!d.scope().equals("test") && !d.scope().equals("runtime")) {
          main.add(target);
        }
      }
      check(m, "src/main/java", main, wrong);
      check(m, "src/test/java", test, wrong);
    }
    assertEquals(List.of(), wrong, "code using a module its POM does not declare (or declares for runtime only)");
  }

  @Test
  void theScannerSeesImportsAndQualifiedNamesButNotStringsOrComments() {
    String source = """
        package org.elasticam.x;
        import org.elasticam.rpc.HadoopTls;
        import static org.elasticam.conf.Keys.NAME;
        // org.elasticam.engine.scheduling.TaskScheduler in a comment
        /** {@link org.elasticam.sim.SimDriver} */
        class A {
          String s = "org.elasticam.executor.tasks.SleepTask";
          Object o = org.elasticam.allocator.Plan.EMPTY;
        }
        """;
    assertEquals(Set.of("org.elasticam.rpc", "org.elasticam.conf", "org.elasticam.allocator"),
        packagesUsed(source));
  }

  private static void check(Module m, String sources, Set<String> reachable, List<String> wrong) throws IOException {
    Map<String, Set<String>> offences = new TreeMap<>();
    for (Path source : javaFiles(ROOT.resolve(m.dir()).resolve(sources))) {
      for (String pkg : packagesUsed(Files.readString(source))) {
        String owner = owner(pkg);
        if (owner != null && !reachable.contains(owner)) {
          offences.computeIfAbsent(m.dir() + "/" + sources + " uses " + owner, k -> new TreeSet<>())
              .add(source.getFileName().toString());
        }
      }
    }
    offences.forEach((what, files) -> wrong.add(what + " in " + files));
  }

  /** The module owning a package: its own, or the nearest enclosing one (generated code, e.g. rpc's stubs). */
  private static String owner(String pkg) {
    for (String p = pkg; p.contains("."); p = p.substring(0, p.lastIndexOf('.'))) {
      String owner = packageOwner.get(p);
      if (owner != null) {
        return owner;
      }
    }
    return null;
  }

  private static final Pattern QUALIFIED = Pattern.compile("\\borg\\.elasticam((?:\\.[a-z_][a-z0-9_]*)+)\\.[A-Z*]");

  static Set<String> packagesUsed(String source) {
    String code = code(source);
    String own = packageOf(source);
    Set<String> used = new TreeSet<>();
    Matcher m = QUALIFIED.matcher(code);
    while (m.find()) {
      String pkg = "org.elasticam" + m.group(1);
      if (!pkg.equals(own)) {
        used.add(pkg);
      }
    }
    return used;
  }

  private static String packageOf(String source) {
    Matcher m = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;").matcher(source);
    return m.find() ? m.group(1) : "";
  }

  /** The source without comments, string, text block and character literals, and without its package line. */
  static String code(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        i = lineEnd(source, i);
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        i = end < 0 ? n : end + 3;
        out.append("\"\"");
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && source.charAt(j) != c) {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        i = j + 1;
        out.append(c).append(c);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString().replaceFirst("(?m)^package\\s+[\\w.]+\\s*;", "");
  }

  private static int lineEnd(String s, int from) {
    int end = s.indexOf('\n', from);
    return end < 0 ? s.length() : end;
  }

  private static List<Path> javaFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Collections.emptyList();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
    }
  }

  private static Document parse(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
  }

  private static List<String> childTexts(Document doc, String list, String item) {
    return children(child(doc.getDocumentElement(), list), item).stream().map(Node::getTextContent)
        .map(String::strip).toList();
  }

  private static Element child(Element parent, String name) {
    for (Element e : children(parent, name)) {
      return e;
    }
    return null;
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i) instanceof Element e && e.getTagName().equals(name)) {
        found.add(e);
      }
    }
    return found;
  }

  private static String text(Element parent, String name) {
    Element e = child(parent, name);
    return e == null ? null : e.getTextContent().strip();
  }
}
