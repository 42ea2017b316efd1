package io.changeflow.adapter.web;

import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;

/**
 * The embedded default's company directory, read once from a properties file
 * ({@code changeflow.directory.location}, default {@code classpath:changeflow/demo-directory.properties}):
 * {@code <account>.employeeId}, {@code <account>.email}, {@code <account>.role}.
 *
 * <p>Failure behaviour: a missing or unreadable file is logged and read as an empty directory
 * (employee IDs then resolve to UNVERIFIED identities, which authorization denies); it never stops
 * start-up.
 */
final class DirectoryFile {

    /** One person in the directory. */
    record Person(String account, String employeeId, String email, String role) {}

    private static final Logger log = LoggerFactory.getLogger(DirectoryFile.class);

    private final List<Person> people;

    DirectoryFile(List<Person> people) {
        this.people = List.copyOf(people);
    }

    static DirectoryFile load(Resource resource) {
        var properties = new Properties();
        try (var reader = new InputStreamReader(resource.getInputStream(), StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | RuntimeException e) {
            log.warn("directory file {} unreadable; the directory is empty", resource, e);
            return new DirectoryFile(List.of());
        }
        var accounts = new TreeSet<String>();
        for (var name : properties.stringPropertyNames()) {
            var dot = name.indexOf('.');
            if (dot > 0) {
                accounts.add(name.substring(0, dot));
            }
        }
        var people = new ArrayList<Person>();
        for (var account : accounts) {
            people.add(new Person(account.toLowerCase(Locale.ROOT),
                    blankToNull(properties.getProperty(account + ".employeeId")),
                    blankToNull(properties.getProperty(account + ".email")),
                    blankToNull(properties.getProperty(account + ".role"))));
        }
        return new DirectoryFile(people);
    }

    List<Person> people() {
        return people;
    }

    Optional<Person> byAccount(String account) {
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
