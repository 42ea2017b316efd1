package io.changeflow.bootstrap.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The architecture rules, parameterised by the root package so that the same rules run against
 * Changeflow ({@code io.changeflow}) and against a fixture of deliberate violations that proves each
 * rule can fail.
 */
final class ArchitectureRules {

    private ArchitectureRules() {
    }

    /** Every rule below, in the order they are listed. */
    static List<ArchRule> all(String root) {
        var all = new ArrayList<>(List.of(domainDependsOnTheJdkOnly(root), applicationDependsOnDomainAndTheJdkOnly(root),
                noSpringInTheCore(root), jooqOnlyInPersistence(root), gitlab4jOnlyInTheGitLabAdapter(root),
                noWallClockInTheCore(root)));
        all.addAll(adaptersAreIndependent(root));
        all.add(localAdaptersAreNotWeb(root));
        all.add(webPackagesAreFreeOfCycles(root));
        all.addAll(webPackagesKeepTheirDirection(root));
        return all;
    }

    static ArchRule domainDependsOnTheJdkOnly(String root) {
        return classes().that().resideInAPackage(root + ".domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", root + ".domain..")
                .as("domain depends only on the JDK");
    }

    static ArchRule applicationDependsOnDomainAndTheJdkOnly(String root) {
        return classes().that().resideInAPackage(root + ".application..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", root + ".domain..", root + ".application..")
                .as("application depends only on domain and the JDK");
    }

    static ArchRule noSpringInTheCore(String root) {
        return noClasses().that().resideInAnyPackage(root + ".domain..", root + ".application..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..")
                .as("Spring is nowhere in domain or application");
    }

    static ArchRule jooqOnlyInPersistence(String root) {
        return noClasses().that().resideOutsideOfPackage(root + ".adapter.persistence..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jooq..")
                .as("jOOQ only in the persistence adapter");
    }

    static ArchRule gitlab4jOnlyInTheGitLabAdapter(String root) {
        return noClasses().that().resideOutsideOfPackage(root + ".adapter.gitlab..")
                .should().dependOnClassesThat().resideInAnyPackage("org.gitlab4j..")
                .as("gitlab4j only in the GitLab adapter");
    }

    static ArchRule noWallClockInTheCore(String root) {
        return noClasses().that().resideInAnyPackage(root + ".domain..", root + ".application..")
                .should().callMethodWhere(readsTheWallClock())
                .as("no wall clock in the core: time comes from an injected java.time.Clock");
    }

    /** Each adapter may depend on application and domain, never on another adapter or on bootstrap. */
    static List<ArchRule> adaptersAreIndependent(String root) {
        var adapters = List.of("web", "persistence", "gitlab", "approval", "scheduler", "local", "notify");
        return adapters.stream()
                .map(adapter -> (ArchRule) noClasses().that().resideInAPackage(root + ".adapter." + adapter + "..")
                        .should().dependOnClassesThat().resideInAnyPackage(otherAdapters(root, adapter, adapters))
                        .as("the " + adapter + " adapter depends on no other adapter, on bootstrap or on the sandbox"))
                .toList();
    }

    /**
     * {@code adapter.local} (module adapters-local) holds the adapters of non-web ports (files, logs,
     * configured grants): it uses neither the web adapter nor servlet, Spring MVC or HTTP types.
     */
    static ArchRule localAdaptersAreNotWeb(String root) {
        return noClasses().that().resideInAPackage(root + ".adapter.local..")
                .should().dependOnClassesThat().resideInAnyPackage(root + ".adapter.web..", "org.springframework.web..",
                        "org.springframework.http..", "jakarta.servlet..")
                .as("adapter.local uses neither the web adapter nor servlet, Spring MVC or HTTP types");
    }

    /** The web adapter's packages by concern, and which of the others each may use (docs/walkthrough.md). */
    private static final Map<String, List<String>> WEB_PACKAGES = Map.of(
            "envelope", List.of(),
            "identity", List.of("envelope"),
            "metrics", List.of("envelope", "identity"),
            "guard", List.of("envelope", "identity", "metrics"),
            "api", List.of("envelope", "identity", "metrics", "guard"));

    /** No cycle between the packages of the web adapter ({@code adapter.web.api}, {@code .identity}, ...). */
    static ArchRule webPackagesAreFreeOfCycles(String root) {
        return slices().matching(root + ".adapter.web.(*)..").should().beFreeOfCycles()
                .as("the web adapter's packages are free of cycles");
    }

    /**
     * The direction inside the web adapter: the wiring ({@code adapter.web} itself) uses every package, none of them
     * uses the wiring, and each uses only the packages below it: envelope, identity, metrics, guard, api.
     */
    static List<ArchRule> webPackagesKeepTheirDirection(String root) {
        var web = root + ".adapter.web";
        return WEB_PACKAGES.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(entry -> {
                    var forbidden = new ArrayList<String>();
                    forbidden.add(web);
                    WEB_PACKAGES.keySet().stream()
                            .filter(other -> !other.equals(entry.getKey()) && !entry.getValue().contains(other))
                            .forEach(other -> forbidden.add(web + "." + other + ".."));
                    return (ArchRule) noClasses().that().resideInAPackage(web + "." + entry.getKey() + "..")
                            .should().dependOnClassesThat().resideInAnyPackage(forbidden.toArray(String[]::new))
                            .as("adapter.web." + entry.getKey() + " uses only " + (entry.getValue().isEmpty()
                                    ? "no other web package" : "adapter.web." + String.join(", ", entry.getValue())));
                })
                .toList();
    }

    private static String[] otherAdapters(String root, String adapter, List<String> adapters) {
        var others = new ArrayList<String>();
        adapters.stream().filter(a -> !a.equals(adapter)).forEach(a -> others.add(root + ".adapter." + a + ".."));
        others.add(root + ".bootstrap..");
        others.add(root + ".sandbox..");
        return others.toArray(String[]::new);
    }

    private static DescribedPredicate<JavaCall<?>> readsTheWallClock() {
        return new DescribedPredicate<>("reads the wall clock (Instant.now(), LocalDateTime.now(), "
                + "System.currentTimeMillis(), Clock.systemUTC(), ...)") {
            @Override
            public boolean test(JavaCall<?> call) {
                var owner = call.getTarget().getOwner().getFullName();
                var name = call.getTarget().getName();
                return switch (owner) {
                    case "java.lang.System" -> name.equals("currentTimeMillis") || name.equals("nanoTime");
                    case "java.time.Clock" -> name.equals("systemUTC") || name.equals("systemDefaultZone");
                    case "java.time.Instant", "java.time.LocalDateTime", "java.time.LocalDate", "java.time.LocalTime",
                         "java.time.ZonedDateTime", "java.time.OffsetDateTime", "java.time.OffsetTime",
                         "java.time.Year", "java.time.YearMonth", "java.time.MonthDay" ->
                            name.equals("now") && call.getTarget().getRawParameterTypes().isEmpty();
                    default -> false;
                };
            }
        };
    }
}
