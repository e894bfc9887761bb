package io.imcore.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * Flyway as the module under test ships it, for migration tests that run Flyway by hand: the settings of every
 * {@code META-INF/microprofile-config.properties} on the class path, then the service's {@code application.properties}
 * (when there is one) over them.
 */
public final class ShippedFlyway {

    private final Properties shipped;

    private ShippedFlyway(Properties shipped) {
        this.shipped = shipped;
    }

    public static ShippedFlyway onClassPath() {
        ClassLoader loader = ShippedFlyway.class.getClassLoader();
        Properties merged = new Properties();
        try {
            for (URL module : Collections.list(loader.getResources("META-INF/microprofile-config.properties"))) {
                try (InputStream in = module.openStream()) {
                    merged.load(in);
                }
            }
            try (InputStream in = loader.getResourceAsStream("application.properties")) {
                if (in != null) {
                    merged.load(in);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shipped configuration", e);
        }
        return new ShippedFlyway(merged);
    }

    /** The service's {@code quarkus.flyway.locations}. */
    public List<String> locations() {
        return Arrays.asList(shipped.getProperty("quarkus.flyway.locations").split(","));
    }

    /** A configuration on the database with the shipped out-of-order and ignore settings; the locations are the caller's. */
    public FluentConfiguration configure(String url) {
        return Flyway.configure().dataSource(url, "postgres", "postgres")
                .outOfOrder(Boolean.parseBoolean(shipped.getProperty("quarkus.flyway.out-of-order")))
                .ignoreMigrationPatterns(shipped.getProperty("quarkus.flyway.ignore-migration-patterns"));
    }
}
