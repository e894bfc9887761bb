// A setup phase's state (users, tokens: secrets!) as a properties file under <local_dir>/bench, replaced whole.

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

final class StateFile {

    private StateFile() {}

    static Properties read(Path path) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(path)) {
            p.load(in);
        }
        return p;
    }

    /** Written beside the file, then moved over it: a reader never sees half a file. */
    static void write(Path path, Properties p, String comment) throws IOException {
        Files.createDirectories(path.toAbsolutePath().getParent());
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            p.store(out, comment);
        }
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
    }
}
