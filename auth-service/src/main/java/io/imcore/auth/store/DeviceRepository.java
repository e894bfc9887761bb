package io.imcore.auth.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class DeviceRepository implements PanacheRepositoryBase<Device, Device.Key> {

    public Optional<Device> findByGuid(long userId, String deviceGuid) {
        return find("userId = ?1 and deviceGuid = ?2", userId, deviceGuid).firstResultOptional();
    }

    public List<Device> ofUser(long userId) {
        return list("userId = ?1 order by deviceSn", userId);
    }
}
