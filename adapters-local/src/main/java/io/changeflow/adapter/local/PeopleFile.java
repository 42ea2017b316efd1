package io.changeflow.adapter.local;

import io.changeflow.application.port.out.DemoPeople;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/**
 * The embedded default's company directory, read once from a properties file
 * ({@code changeflow.directory.location}; no default outside the sandbox): {@code <account>.employeeId},
 * {@code <account>.email}, {@code <account>.role}, and the relations the {@code related} policy of who may ask for
 * whom reads (issue 37): {@code <account>.manager} (the manager's account), {@code <account>.team}. The demo people
 * ({@code classpath:changeflow/demo-directory.properties}) are read only with the sandbox's demo login on:
 * outside the sandbox they never name anyone.
 *
 * <p>Failure behaviour: a missing or unreadable file is logged and read as an empty directory
 * (employee IDs then resolve to UNVERIFIED identities, which authorization denies); it never stops
 * start-up.
 */
public final class PeopleFile implements DemoPeople {

    /** The demo people of the sandbox; read only with the demo login on (the sandbox profile), never elsewhere. */
    public static final String DEMO_LOCATION = "classpath:changeflow/demo-directory.properties";

    private static final Logger log = LoggerFactory.getLogger(PeopleFile.class);

    private final List<Person> people;
    /** account to its manager's account, and account to its team; accounts in lower case. */
    private final Map<String, String> managers;
    private final Map<String, String> teams;

    PeopleFile(List<Person> people) {
        this(people, Map.of(), Map.of());
    }

    private PeopleFile(List<Person> people, Map<String, String> managers, Map<String, String> teams) {
        this.people = List.copyOf(people);
        this.managers = Map.copyOf(managers);
        this.teams = Map.copyOf(teams);
    }

    /**
     * The directory {@code location} names, for the embedded defaults; with the demo login on (the
     * sandbox) and no location, the demo people. Without a location elsewhere, or with the
     * demo directory outside the sandbox ({@code demoLogin} false), an empty directory and a warning at
     * start-up: employee IDs are then unverified (never granted access); accounts and email addresses of
     * accepted domains still identify people.
     */
    public static PeopleFile configured(String location, boolean demoLogin, boolean embeddedDefaults, ResourceLoader loader) {
        if (location.isEmpty() && demoLogin) {
            return load(loader.getResource(DEMO_LOCATION));
        }
        if (location.isEmpty()) {
            if (embeddedDefaults) {
                log.warn("No company directory is configured (changeflow.directory.location, or a Directory bean with "
                        + "changeflow.identity.embedded-defaults=false): employee IDs are UNVERIFIED and get no access");
            }
            return new PeopleFile(List.of());
        }
        if (!demoLogin && DEMO_LOCATION.equals(location)) {
            log.warn("changeflow.directory.location names the demo directory, which is used only in the sandbox profile: "
                    + "the directory is empty, employee IDs are UNVERIFIED and get no access");
            return new PeopleFile(List.of());
        }
        return load(loader.getResource(location));
    }

    static PeopleFile load(Resource resource) {
        var properties = new Properties();
        try (var reader = new InputStreamReader(resource.getInputStream(), StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | RuntimeException e) {
            log.warn("directory file {} unreadable; the directory is empty", resource, e);
            return new PeopleFile(List.of());
        }
        var accounts = new TreeSet<String>();
        for (var name : properties.stringPropertyNames()) {
            var dot = name.indexOf('.');
            if (dot > 0) {
                accounts.add(name.substring(0, dot));
            }
        }
        var people = new ArrayList<Person>();
        var managers = new HashMap<String, String>();
        var teams = new HashMap<String, String>();
        for (var account : accounts) {
            var key = account.toLowerCase(Locale.ROOT);
            var manager = blankToNull(properties.getProperty(account + ".manager"));
            if (manager != null) {
                managers.put(key, manager.toLowerCase(Locale.ROOT));
            }
            var team = blankToNull(properties.getProperty(account + ".team"));
            if (team != null) {
                teams.put(key, team);
            }
            people.add(new Person(key,
                    blankToNull(properties.getProperty(account + ".employeeId")),
                    blankToNull(properties.getProperty(account + ".email")),
                    blankToNull(properties.getProperty(account + ".role"))));
        }
        return new PeopleFile(people, managers, teams);
    }

    /** Whether one of the two is the other's manager, or both are on one team; false for anyone the file does not relate. */
    boolean relates(String one, String other) {
        var a = one.strip().toLowerCase(Locale.ROOT);
        var b = other.strip().toLowerCase(Locale.ROOT);
        if (b.equals(managers.get(a)) || a.equals(managers.get(b))) {
            return true;
        }
        var team = teams.get(a);
        return team != null && team.equals(teams.get(b));
    }

    @Override
    public List<Person> people() {
        return people;
    }

    @Override
    public Optional<Person> byAccount(String account) {
        return people.stream().filter(p -> p.account().equalsIgnoreCase(account.strip())).findFirst();
    }

    Optional<Person> byEmployeeId(String employeeId) {
        return people.stream().filter(p -> p.employeeId() != null && p.employeeId().equalsIgnoreCase(employeeId.strip()))
                .findFirst();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
