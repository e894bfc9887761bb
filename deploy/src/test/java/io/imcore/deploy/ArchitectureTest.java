package io.imcore.deploy;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The code's shape over every module (issue 52): no package cycles, one top-level class per simple name, each test
 * beside the class it is named for. It reads the other modules' compiled classes (target/classes, target/test-classes),
 * so it runs after them: the root pom lists this module last, and {@code ./mvnw verify} builds them in that order.
 */
class ArchitectureTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void noModuleHasAPackageCycle() {
        List<String> cycles = new ArrayList<>();
        for (String module : modules()) {
            EvaluationResult result = slices().matching("io.imcore.(**)").namingSlices(module + ": $1")
                    .should().beFreeOfCycles()
                    .allowEmptyShould(true)
                    .evaluate(mainClasses(module));
            cycles.addAll(result.getFailureReport().getDetails());
        }
        assertEquals(List.of(), cycles, "package cycles in main code");
    }

    @Test
    void noTwoTopLevelClassesShareASimpleName() {
        Map<String, Set<String>> bySimpleName = mainClassesBySimpleName();
        bySimpleName.values().removeIf(places -> places.size() == 1);
        assertEquals(Map.of(), bySimpleName, "simple names of more than one top-level class");
    }

    @Test
    void aTestNamedForAClassIsInThatClassesModuleAndPackage() {
        Map<String, Set<String>> mainClasses = mainClassesBySimpleName();
        List<String> misplaced = new ArrayList<>();
        for (String module : modules()) {
            for (JavaClass test : topLevel(testClasses(module))) {
                String tested = test.getSimpleName().replaceFirst("(Test|IT)$", "");
                Set<String> places = mainClasses.get(tested);
                if (tested.equals(test.getSimpleName()) || places == null
                        || places.contains(module + ":" + test.getPackageName() + "." + tested)) {
                    continue;
                }
                misplaced.add(module + ":" + test.getName() + " is named for " + places);
            }
        }
        assertEquals(List.of(), misplaced, "tests away from the class they are named for");
    }

    /** Every module's top-level main classes by simple name, each as "module:fully qualified name". */
    private static Map<String, Set<String>> mainClassesBySimpleName() {
        Map<String, Set<String>> bySimpleName = new TreeMap<>();
        for (String module : modules()) {
            for (JavaClass type : topLevel(mainClasses(module))) {
                bySimpleName.computeIfAbsent(type.getSimpleName(), name -> new TreeSet<>())
                        .add(module + ":" + type.getName());
            }
        }
        return bySimpleName;
    }

    /** The root pom's modules but this one. */
    private static List<String> modules() {
        try {
            Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
            List<String> modules = new ArrayList<>();
            while (module.find()) {
                if (!module.group(1).equals("deploy")) {
                    modules.add(module.group(1));
                }
            }
            return modules;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the root pom", e);
        }
    }

    private static JavaClasses mainClasses(String module) {
        return classes(module, "classes");
    }

    private static JavaClasses testClasses(String module) {
        return classes(module, "test-classes");
    }

    private static JavaClasses classes(String module, String directory) {
        Path compiled = ROOT.resolve(module).resolve("target").resolve(directory);
        boolean hasSources = Files.isDirectory(ROOT.resolve(module).resolve("src")
                .resolve(directory.equals("classes") ? "main" : "test").resolve("java"));
        assertTrue(!hasSources || Files.isDirectory(compiled), compiled + " missing: build the modules before deploy");
        return hasSources ? new ClassFileImporter().importPath(compiled) : new ClassFileImporter().importClasses();
    }

    private static Set<JavaClass> topLevel(JavaClasses classes) {
        return classes.stream()
                .filter(JavaClass::isTopLevelClass)
                .filter(type -> !type.getSimpleName().equals("package-info"))
                .collect(Collectors.toSet());
    }
}
