"""The rate limits' buckets (sheets_sync.web.throttle), shared by every web process."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('web', '0004_job_lifecycle'),
    ]

    operations = [
        migrations.CreateModel(
            name='Throttle',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(help_text="the limit's name and a hash of who", max_length=100, unique=True)),
                ('tokens', models.FloatField(help_text='actions left at `stamp`')),
                ('stamp', models.FloatField(help_text='unix seconds of the last action taken')),
                ('version', models.IntegerField(default=0, help_text="bumped by every take: a conditional update's guard")),
            ],
        ),
    ]
