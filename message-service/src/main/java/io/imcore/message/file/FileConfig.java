package io.imcore.message.file;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** File messages ({@code im.file.*}, docs/files.md): the object store, the URLs' lifetimes and the limits. */
@ConfigMapping(prefix = "im.file")
public interface FileConfig {

    /** The S3-compatible object store (AWS S3, MinIO, Ceph RGW, s3proxy...). */
    Store store();

    /** How long an upload URL may be used; the PUT must start before it expires. */
    @WithDefault("15M")
    Duration uploadExpiry();

    /** How long a download URL works. */
    @WithDefault("5M")
    Duration downloadExpiry();

    /** An upload not completed within this time is deleted with its object by the sweep. */
    @WithDefault("1D")
    Duration incompleteRetention();

    /** How often the sweep looks for those uploads. */
    @WithDefault("10M")
    Duration sweepInterval();

    /** Thumbnails (JPEG and PNG images) fit in a square of this many pixels. */
    @WithDefault("320")
    int thumbnailSize();

    /** Images with more pixels than this get no thumbnail (decoding them would take that much memory). */
    @WithDefault("40000000")
    long thumbnailMaxPixels();

    /** The limits of every app without its own entry in {@link #apps()}. */
    Limits limits();

    /** Limits of particular apps, by app_id: {@code im.file.apps."APP_ID".image=...}. */
    Map<String, Limits> apps();

    interface Store {

        /** Where this service reaches the store. */
        @WithDefault("http://127.0.0.1:19100")
        String endpoint();

        /** The endpoint written into the URLs handed to clients, when they reach the store elsewhere. */
        Optional<String> publicEndpoint();

        @WithDefault("us-east-1")
        String region();

        @WithDefault("imcore-files")
        String bucket();

        /** Bucket in the path (MinIO, Ceph, s3proxy) rather than in the host name (AWS virtual-hosted style). */
        @WithDefault("true")
        boolean pathStyle();

        /** The service's own credentials; never handed to a client. */
        @WithDefault("local-identity")
        String accessKey();

        @WithDefault("local-credential")
        String secretKey();
    }

    /** The largest file of each kind, in bytes; 0 refuses the kind. */
    interface Limits {

        @WithDefault("20971520")
        long image();

        @WithDefault("20971520")
        long audio();

        @WithDefault("209715200")
        long video();

        @WithDefault("104857600")
        long file();

        default long of(FileKind kind) {
            return switch (kind) {
                case IMAGE -> image();
                case AUDIO -> audio();
                case VIDEO -> video();
                case FILE -> file();
            };
        }
    }
}
